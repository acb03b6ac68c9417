// The house's boundaries (architecture.md): Roll20 is called only from src/roll20/, no edition id
// or edition flag is named outside src/rules/, and the writer has at most two callers. Checked on
// the TypeScript itself, so a new file cannot slip past them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allEditions, editionIds } from '../../src/rules/editions';

const root = join(__dirname, '..', '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const files = sourceFiles(src);
const ROLL20_TYPINGS = join(root, 'types', 'roll20', 'index.d.ts');

describe('Roll20 is called only from src/roll20/', () => {
  it('no file outside src/roll20/ calls a Roll20 global (`getObj`, `sendChat`, `on`, `log`, `state` ...) or writes a Roll20 object (`set`, `remove`)', () => {
    const program = ts.createProgram([...files, ROLL20_TYPINGS], { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, types: [] });
    const checker = program.getTypeChecker();
    const found: string[] = [];
    // The same look inside src/roll20/, where the calls belong: it must see them (else it sees nothing anywhere).
    let inRoll20 = 0;
    for (const file of files) {
      const rel = relative(root, file);
      const allowed = rel.startsWith(join('src', 'roll20'));
      const source = program.getSourceFile(file)!;
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) && !ts.isTypeNode(node.parent) && !ts.isTypeReferenceNode(node.parent)) {
          const symbol = checker.getSymbolAtLocation(node);
          const declarations = symbol?.declarations ?? [];
          const fromRoll20 = declarations.length > 0 && declarations.every((d) => d.getSourceFile().fileName === ROLL20_TYPINGS);
          // A global value Roll20 provides: its functions and its objects.
          const global = fromRoll20 && declarations.some((d) => ts.isFunctionDeclaration(d) || ts.isVariableDeclaration(d));
          // A write to one of Roll20's objects.
          const write = fromRoll20 && ts.isPropertyAccessExpression(node.parent) && node.parent.name === node && ['set', 'setWithWorker', 'remove'].includes(node.text);
          if ((global || write) && allowed) inRoll20 += 1;
          else if (global || write) {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart());
            found.push(`${rel}:${line + 1} ${node.text}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
    expect(inRoll20).toBeGreaterThan(20);
  });
});

/** String literals of a file (its code's strings, template parts included), with their lines. */
function literals(file: string): Array<{ text: string; line: number }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2020, true);
  const out: Array<{ text: string; line: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('edition knowledge stays in src/rules/', () => {
  // Flags every command has, whatever the edition: the pipeline's own.
  const PIPELINE_FLAGS = new Set(['ids', 'help', 'undo', 'force', 'to', 'api-as']);
  const editionFlags = [...new Set(allEditions().flatMap((edition) => [edition.hit, edition.check, edition.stance].flatMap((spec) => Object.keys(spec.flags))))].filter((flag) => !PIPELINE_FLAGS.has(flag));
  const outside = files.filter((file) => !relative(root, file).startsWith(join('src', 'rules')));

  it('knows the editions and their flags (the check has something to look for)', () => {
    expect(editionIds().length).toBeGreaterThanOrEqual(3);
    expect(editionFlags).toEqual(expect.arrayContaining(['defense-mode', 'aided-by', 'perception-roll', 'roll', 'vs']));
  });

  it('no edition id is written outside src/rules/', () => {
    const found = outside.flatMap((file) =>
      literals(file)
        .filter(({ text }) => editionIds().some((id) => new RegExp(`(^|[^\\w-])${id}([^\\w-]|$)`).test(text)))
        .map(({ text, line }) => `${relative(root, file)}:${line} "${text.slice(0, 60)}"`),
    );
    expect(found).toEqual([]);
  });

  it('the tools around the script (the playground, the demos and mocks, the fuzzer) name no edition: they read the registry', () => {
    // Allowed by name: the fights scripted by hand for one edition's rules each (as a test names the
    // edition it tests). The bench is not read: its floors are one edition's hit by hand, as source text.
    const SCRIPTED = join('mocks', 'cli-demo-fights.ts');
    const tools = ['playground', 'mocks', 'fuzz'].flatMap((dir) => sourceFiles(join(root, dir))).filter((file) => !file.includes(`${join('playground', 'dist')}`) && relative(root, file) !== SCRIPTED);
    expect(tools.length).toBeGreaterThan(20);
    const found = tools.flatMap((file) =>
      literals(file)
        .filter(({ text }) => editionIds().some((id) => new RegExp(`(^|[^\\w-])${id}([^\\w-]|$)`).test(text)))
        .map(({ text, line }) => `${relative(root, file)}:${line} "${text.slice(0, 60)}"`),
    );
    expect(found).toEqual([]);
  });

  it('no edition flag is named outside src/rules/ (as a flag name, or as --flag in words)', () => {
    const found = outside.flatMap((file) =>
      literals(file)
        .filter(({ text }) => editionFlags.some((flag) => text === flag || new RegExp(`--${flag}(?![\\w-])`).test(text)))
        .map(({ text, line }) => `${relative(root, file)}:${line} "${text.slice(0, 60)}"`),
    );
    expect(found).toEqual([]);
  });
});

describe('one writer', () => {
  it('the writer (src/roll20/write.ts) is called from at most two places, whatever it exports', () => {
    const calls = files
      .filter((file) => !file.endsWith(join('roll20', 'write.ts')))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        // Every value imported from the writer (its types aside), then every call of one of them.
        const imports = [...text.matchAll(/import \{([^}]*)\} from '[./]*(?:roll20\/)?write'/g)].flatMap((match) =>
          match[1]!.split(',').map((name) => name.trim()).filter((name) => name !== '' && !name.startsWith('type ')),
        );
        return imports.flatMap((name) => [...text.matchAll(new RegExp(`\\b${name}\\(`, 'g'))].map(() => `${relative(root, file)} ${name}`));
      });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBeLessThanOrEqual(2);
  });
});

describe('one shape per edition folder (architecture.md, "One shape per folder")', () => {
  // The files an edition folder may hold: its declaration, state, words, rules (whole, or by concern) and situations.
  const SHAPE = new Set(['index.ts', 'state.ts', 'words.ts', 'rules.ts', 'hit.ts', 'check.ts', 'life.ts', 'situations.ts']);
  const folders = readdirSync(join(src, 'rules'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  // The folders the registry imports its editions from: every one of them is an edition folder.
  const registry = readFileSync(join(src, 'rules', 'registry.ts'), 'utf8');
  const imported = [...registry.matchAll(/from '\.\/([\w-]+)'/g)].map((match) => match[1]!);

  it('every folder in src/rules/ is an edition the registry imports, and each registered edition has one', () => {
    expect(folders.length).toBeGreaterThanOrEqual(editionIds().length);
    expect([...folders].sort()).toEqual([...new Set(imported)].sort());
  });

  it.each(folders)('src/rules/%s/ holds index.ts, words.ts, its rules, and nothing outside the shape', (folder) => {
    const names = readdirSync(join(src, 'rules', folder));
    expect(names.filter((name) => !SHAPE.has(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['index.ts', 'words.ts']));
    expect(names.some((name) => name === 'rules.ts' || name === 'hit.ts')).toBe(true);
  });
});
