// `npm run fuzz -- [--steps N] [--seed S] [--world W] [--world-steps K] [--keep-going] [--skip kind,...] [--avoid bug,...] [--verbose]`:
// builds the bundle (package.json does), then fuzzes it. The seed is printed first, so a failure can
// be replayed with the same --seed (and --world to start at the failing world).
import { BUG_CLASSES, fuzz, STEP_KINDS, type BugClass, type StepKind } from './fuzz';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function integer(name: string, fallback: number): number {
  const text = option(name);
  if (text === undefined) return fallback;
  const value = Number(text.replace(/_/g, ''));
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} needs a whole number (got "${text}")`);
    process.exit(2);
  }
  return value;
}

const seed = integer('seed', Math.floor(Math.random() * 2 ** 31));
const steps = integer('steps', 10_000);
const world = integer('world', 0);
const worldSteps = integer('world-steps', 2_000);
const keepGoing = process.argv.includes('--keep-going');
const skip = (option('skip') ?? '').split(',').filter((k) => k !== '') as StepKind[];
for (const kind of skip) {
  if (!(STEP_KINDS as readonly string[]).includes(kind)) {
    console.error(`--skip: unknown step kind "${kind}" (kinds: ${STEP_KINDS.join(', ')})`);
    process.exit(2);
  }
}

const avoid = (option('avoid') ?? '').split(',').filter((k) => k !== '') as BugClass[];
for (const bug of avoid) {
  if (!Object.prototype.hasOwnProperty.call(BUG_CLASSES, bug)) {
    console.error(`--avoid: unknown bug class "${bug}" (open classes: ${Object.keys(BUG_CLASSES).join(', ') || 'none'})`);
    process.exit(2);
  }
}

console.log(`seed ${seed}`);
console.log(`fuzzing dist/defense-round.js: ${steps} steps${world ? ` from world ${world}` : ''}, ${worldSteps} steps per world${skip.length ? `, skipping ${skip.join(', ')}` : ''}${avoid.length ? `, avoiding ${avoid.join(', ')}` : ''}`);
const report = await fuzz({
  seed,
  steps,
  startWorld: world,
  worldSteps,
  skip,
  avoid,
  maxFailures: keepGoing ? 1_000 : 1,
  ...(process.argv.includes('--verbose') ? { log: (line: string) => console.log(line) } : {}),
  onProgress: (done, ms) => {
    if (done % 50_000 === 0 || done === 10_000) console.log(`  ${done} steps, ${Math.round(done / (ms / 1000))} steps/s`);
  },
});
console.log(`${report.steps} steps in ${report.worlds} worlds, ${(report.elapsedMs / 1000).toFixed(1)} s, ${Math.round(report.stepsPerSecond)} steps/s`);
console.log(`step kinds: ${Object.entries(report.kinds).map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log(`coverage: ${Object.entries(report.coverage).sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
const warnings = Object.entries(report.warnings).sort((a, b) => b[1] - a[1]);
if (warnings.length > 0) console.log(`mock warnings: ${warnings.map(([w, n]) => `${n}x ${w}`).join('; ')}`);
for (const failure of report.failures) console.log(`\n${failure.message}`);
if (report.failures.length > 0) {
  console.log(`\nFAILED: ${report.failures.length} failing step${report.failures.length === 1 ? '' : 's'} (seed ${seed})`);
  process.exit(1);
}
console.log(`clean: every invariant held after every step (seed ${seed})`);
