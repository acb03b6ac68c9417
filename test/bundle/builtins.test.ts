// The bundle reads JavaScript's built-ins once, at load (src/builtins.ts, injected by build.mjs):
// a lookup on the sandbox's global object costs about 90 times a constant's, and the code that
// runs per token would make dozens of them. Checked on the shipped file's syntax tree.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const BUILTINS = new Set(['Math', 'Number', 'String', 'Object', 'Array', 'JSON', 'Map', 'Set', 'WeakMap', 'Error', 'RangeError', 'TypeError', 'Promise', 'Date', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'RegExp', 'Symbol', 'Boolean', 'Reflect']);

/** Every place an identifier of BUILTINS is read as a global variable: not a property name, not a declaration. */
function globalReads(source: string): Array<{ name: string; line: number; text: string }> {
  const file = ts.createSourceFile('defense-round.js', source, ts.ScriptTarget.ES2020, true, ts.ScriptKind.JS);
  const found: Array<{ name: string; line: number; text: string }> = [];
  const declared = new Set<string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isParameter(node)) && node.name && ts.isIdentifier(node.name)) {
      declared.add(node.name.text);
    }
    if (ts.isIdentifier(node) && BUILTINS.has(node.text)) {
      const parent = node.parent;
      const isPropertyName = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node) || ts.isMethodDeclaration(parent) || (ts.isPropertyDeclaration(parent) && parent.name === node);
      if (!isPropertyName) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        found.push({ name: node.text, line: line + 1, text: source.split('\n')[line]!.trim().slice(0, 120) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  // A name the bundle declares itself is not a global read.
  return found.filter((read) => !declared.has(read.name));
}

/**
 * The last line of src/builtins.ts in the bundle (1-based): the end of the variable statement that
 * takes `Math` itself as a value (`var A = Math, I = Number, ...`, however the build shortened it).
 */
function injectedBlockEnd(source: string): number {
  const file = ts.createSourceFile('defense-round.js', source, ts.ScriptTarget.ES2020, true, ts.ScriptKind.JS);
  let end = -1;
  const visit = (node: ts.Node): void => {
    if (end >= 0) return;
    if (ts.isVariableStatement(node) && node.declarationList.declarations.some((d) => d.initializer && ts.isIdentifier(d.initializer) && d.initializer.text === 'Math')) {
      end = file.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return end;
}

describe('built-ins in the shipped file', () => {
  const bundle = readFileSync('dist/defense-round.js', 'utf8');

  it('are read from the sandbox only where the bundle starts: its meta lines, esbuild\'s helpers and src/builtins.ts', () => {
    const lines = bundle.split('\n');
    const injectedEnd = injectedBlockEnd(bundle);
    expect(injectedEnd).toBeGreaterThan(0);
    const late = globalReads(bundle).filter(({ line }) => line > injectedEnd && line < lines.length - 1);
    expect(late).toEqual([]);
  });

  it('finds a global read where there is one (the check can fail)', () => {
    expect(globalReads('function f(x) { return Math.max(x, String(x).length); }').map((read) => read.name)).toEqual(['Math', 'String']);
    expect(globalReads('var math = 1; function f(o) { return o.Math + math; }')).toEqual([]);
  });
});
