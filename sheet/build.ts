// Writes the companion character sheet's files (sheet/render.ts) into sheet/.
//   npx tsx sheet/build.ts  (or node sheet/build.mjs)            write them
//   npx tsx sheet/build.ts --check  (node sheet/build.mjs --check)  fail when the committed files differ from a fresh build
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sheetFiles } from './render';

const here = dirname(fileURLToPath(import.meta.url));
const files = sheetFiles();
if (process.argv.includes('--check')) {
  const stale = Object.keys(files).filter((name) => {
    try {
      return readFileSync(join(here, name), 'utf8') !== files[name];
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error(`sheet/: ${stale.join(', ')} differ from a fresh build: run node sheet/build.mjs`);
    process.exit(1);
  }
} else {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(here, name), text);
  console.log(`sheet/: wrote ${Object.keys(files).join(', ')}`);
}
