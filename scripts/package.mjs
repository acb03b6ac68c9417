// Writes the script in the layout of Roll20's community repository (roll20-api-scripts):
//   package/DefenseRound/script.json
//   package/DefenseRound/defense-round.js          the current version
//   package/DefenseRound/<version>/defense-round.js
// The previous versions' folders are already in that repository; this adds the current one.
//   node scripts/package.mjs [--out DIR]
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const out = outIndex === -1 ? join(root, 'package') : process.argv[outIndex + 1];
const meta = JSON.parse(readFileSync(join(root, 'script.json'), 'utf8'));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundle = join(root, 'dist', 'defense-round.js');

const problems = [];
if (meta.version !== version) problems.push(`script.json has version ${meta.version}, package.json ${version}`);
if (meta.script !== 'defense-round.js') problems.push(`script.json names the script ${meta.script}`);
if (!existsSync(bundle)) problems.push('dist/defense-round.js is missing: run npm run build');
else if (!readFileSync(bundle, 'utf8').includes(`${meta.name} v${version}`)) problems.push('dist/defense-round.js is not this version: run npm run build');
if (problems.length > 0) {
  console.error(`Not packaged: ${problems.join('; ')}.`);
  process.exit(1);
}

// The community repository credits the Roll20 account that submits the script: its numeric user
// id is the publisher's own, given at packaging time (ROLL20_USER_ID=123456 npm run package).
const userId = process.env.ROLL20_USER_ID;
if (userId !== undefined) {
  if (!/^\d+$/.test(userId)) {
    console.error(`Not packaged: ROLL20_USER_ID must be a Roll20 user id (digits), got "${userId}".`);
    process.exit(1);
  }
  meta.roll20userid = userId;
} else if (!/^[1-9]\d*$/.test(String(meta.roll20userid))) {
  console.warn('Note: script.json has no Roll20 user id yet; set ROLL20_USER_ID=<your Roll20 user id> when packaging for submission.');
}

const folder = join(out, meta.name);
rmSync(folder, { recursive: true, force: true });
mkdirSync(join(folder, version), { recursive: true });
writeFileSync(join(folder, 'script.json'), `${JSON.stringify(meta, null, 2)}\n`);
copyFileSync(bundle, join(folder, meta.script));
copyFileSync(bundle, join(folder, version, meta.script));
console.log(`packaged ${meta.name} v${version} in ${folder}: script.json, ${meta.script}, ${version}/${meta.script}`);
