// `npm run playground`: one self-contained HTML page, playground/dist/index.html, that runs the
// shipped dist/defense-round.js on the in-memory Roll20 of mocks/. Open it from disk: no server.
//   node playground/build.mjs [--out FILE] [--no-typecheck]
// The page inlines its script and style (allowed by their hashes in the page's CSP) and carries
// dist/defense-round.js verbatim in a <script type="text/plain">, evaluated by the page.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const src = join(here, 'src');

function option(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const outFile = resolve(option('--out') ?? join(here, 'dist', 'index.html'));

function fail(message) {
  console.error(`playground: ${message}`);
  process.exit(1);
}

if (!process.argv.includes('--no-typecheck')) {
  // The page's own code, with the DOM's types (the project's tsconfig has none).
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
  } catch {
    fail('the playground does not typecheck (tsc -p playground/tsconfig.json)');
  }
}

// mocks/dice.ts loads the dice parser through node:module's createRequire; the page has its own.
const browserShims = {
  name: 'browser-shims',
  setup(b) {
    b.onResolve({ filter: /^node:module$/ }, () => ({ path: join(src, 'node-module.ts') }));
    b.onResolve({ filter: /^node:/ }, (args) => ({ errors: [{ text: `${args.path} has no browser stand-in (imported by ${relative(root, args.importer)})` }] }));
  },
};

const result = await build({
  entryPoints: [join(src, 'main.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: false,
  legalComments: 'none',
  charset: 'ascii',
  plugins: [browserShims],
  // Only mocks/dice.ts reads it, to hand to createRequire, which the page's stand-in ignores.
  define: { 'import.meta.url': '"about:playground"' },
  logLevel: 'warning',
});
const script = result.outputFiles[0].text;

const defenseRound = readFileSync(join(root, 'dist', 'defense-round.js'), 'utf8');
// Inside <script type="text/plain"> the HTML parser ends the element at "</script" and treats
// "<!--" specially; the shipped file must hold neither to travel verbatim.
if (/<\/script/i.test(defenseRound) || defenseRound.includes('<!--')) {
  fail('dist/defense-round.js holds "</script" or "<!--" and cannot be carried verbatim in the page');
}
if (/<\/script/i.test(script)) fail('the page script holds "</script"');
if (defenseRound.includes('\r')) fail('dist/defense-round.js holds carriage returns, which the HTML parser would turn into line feeds');

const style = readFileSync(join(src, 'styles.css'), 'utf8');

// The character sheet (sheet/), from the same files Roll20 is given: its HTML in an inert
// <template> (the page clones it; its worker script taken out), its CSS in a style of its own
// (allowed by hash), the worker script and translation.json carried as text.
const sheetDir = join(root, 'sheet');
const sheetHtml = readFileSync(join(sheetDir, 'defense-round.html'), 'utf8');
const sheetStyle = readFileSync(join(sheetDir, 'defense-round.css'), 'utf8');
const sheetTranslation = JSON.parse(readFileSync(join(sheetDir, 'translation.json'), 'utf8'));
let sheetLegacy = false;
try {
  sheetLegacy = JSON.parse(readFileSync(join(sheetDir, 'sheet.json'), 'utf8')).legacy === true;
} catch {
  // No sheet.json: a sheet on Roll20's Character Sheet Enhancement (no class prefixing).
}
const workerTags = [...sheetHtml.matchAll(/<script\s+type=["']text\/worker["']\s*>([\s\S]*?)<\/script\s*>/gi)];
if (workerTags.length !== 1) fail(`sheet/defense-round.html holds ${workerTags.length} <script type="text/worker"> elements; Roll20 runs one`);
const sheetWorkers = workerTags[0][1];
const sheetMarkup = sheetHtml.replace(workerTags[0][0], '');
if (/<\/?script/i.test(sheetMarkup)) fail('sheet/defense-round.html holds a <script> besides its worker script');
if (/<\/template/i.test(sheetMarkup)) fail('sheet/defense-round.html holds "</template"');
if (sheetWorkers.includes('<!--')) fail('the sheet\'s worker script holds "<!--" and cannot be carried verbatim in the page');
if (/<\/style/i.test(sheetStyle)) fail('sheet/defense-round.css holds "</style"');
// JSON in a script element: "<" escaped, so no "</script" can end it early.
const sheetData = JSON.stringify({ legacy: sheetLegacy, translation: sheetTranslation }).replace(/</g, '\\u003c');
const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const values = {
  SCRIPT_HASH: sha(script),
  STYLE_HASH: sha(style),
  STYLE: style,
  SHEET_STYLE_HASH: sha(sheetStyle),
  SHEET_STYLE: sheetStyle,
  SHEET_HTML: sheetMarkup,
  SHEET_WORKERS: sheetWorkers,
  SHEET_DATA: sheetData,
  DEFENSE_ROUND: defenseRound,
  SCRIPT: script,
};
const template = readFileSync(join(src, 'index.html'), 'utf8');
// One pass over the template: text put in is never scanned for placeholders again.
const html = template.replace(/%([A-Z_]+)%/g, (all, key) => {
  if (!(key in values)) fail(`index.html has an unknown placeholder ${all}`);
  return values[key];
});

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, html);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
console.log(`built ${relative(process.cwd(), outFile) || outFile} (DefenseRound v${version}, ${html.length} bytes): open it in a browser, no server needed.`);
