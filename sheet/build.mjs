// node sheet/build.mjs [--check]: runs sheet/build.ts with tsx (the sheet's declaration is TypeScript).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
execFileSync(process.execPath, ['--import', 'tsx', join(here, 'build.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
