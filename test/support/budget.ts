// The shipped file's size budget, per part (issue 31): the shared core (everything not in an edition
// folder, the bundled packages included) and each edition folder on its own, and a total that grows
// with the number of editions, so that a new edition is weighed on its own and a copy of any fits.
import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * In bytes of the shipped file (docs/performance.md, "The bundle's budget"). Set on 2026-12-05 at
 * core 175,000 and editions 56,000 (core 162.3 KB, soak 50.6 KB then); issue 32 (the exchange as the
 * rules texts ask it) filled both to within a few hundred bytes (core 174,966, soak 55,824), and
 * the exchange's table work (issue 33) is the core's, so the core may weigh up to 186,000 and each
 * edition up to 60,000 (366 KB for three). Roll20 loads every script of a game on each start; the
 * start-up stays in `npm run bench`. An edition is weighed on its own: a copy of any one, even the
 * largest, and a copy of that copy fit.
 */
export const BUDGET = { core: 186_000, edition: 60_000 } as const;

/** The most the shipped file may weigh with this many editions registered: what its parts' budgets add up to. */
export function totalBudget(editions: number): number {
  return BUDGET.core + editions * BUDGET.edition;
}

export interface Parts {
  /** The shared core's share of the shipped file. */
  core: number;
  /** Each edition folder's share, by its folder's name under src/rules/. */
  editions: Record<string, number>;
}

/**
 * Each part's share of a shipped file of `shipped` bytes built from `root`. esbuild says which input
 * each output byte came from (its metafile's `bytesInOutput`), but build.mjs shortens the code and
 * compacts it line by line after esbuild, so no esbuild build gives the shipped bytes per input. The
 * build measured here is esbuild's whole minification (the options of build.mjs, minified): of the
 * builds it can account for, the one closest to the shipped code; each part then gets its share of
 * the shipped bytes (the line layout build.mjs keeps is spread evenly over the code).
 */
export async function measureParts(root: string, shipped: number): Promise<Parts> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src', 'index.ts')],
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    globalName: 'DefenseRound',
    inject: [join(root, 'src', 'builtins.ts')],
    target: 'es2020',
    platform: 'neutral',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  const minified: Record<string, number> = {};
  for (const [path, input] of Object.entries(output.inputs)) {
    const folder = /^src\/rules\/([^/]+)\//.exec(path)?.[1];
    if (folder !== undefined) minified[folder] = (minified[folder] ?? 0) + input.bytesInOutput;
  }
  const share = (bytes: number) => Math.round((shipped * bytes) / output.bytes);
  const editions = Object.fromEntries(Object.entries(minified).map(([folder, bytes]) => [folder, share(bytes)]));
  const core = shipped - Object.values(editions).reduce((sum, bytes) => sum + bytes, 0);
  return { core, editions };
}
