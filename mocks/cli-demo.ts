// `npm start -- --demo EDITION`: a short fight on the demo scene in any registered edition, printed
// as a transcript (each step's title, its commands, then what chat shows). Each step names the
// numbers it should produce; a step that does not show them is flagged and the demo exits 1, so a
// demo that stops matching the rules is noticed. Some editions have a fight scripted by hand for
// their rules (mocks/cli-demo-fights.ts, as a test names the edition it tests); every other
// edition plays the fight its sample makes (its worked example on the demo table, then its hit as
// an `!attack` that Alice answers with a click), or a plain hit.
import type { CliSession } from './cli-session.js';
import { DEFAULT_EDITION, editionIds, editionOf } from '../src/rules/editions.js';
import type { EditionId, SampleValues } from '../src/rules/edition.js';
import { SCRIPTED_DEMOS } from './cli-demo-fights.js';

export { SCRIPTED_DEMOS };

/** The editions `--demo` plays: every one the registry holds. */
export function demoEditions(): EditionId[] {
  return editionIds();
}

export interface DemoStep {
  title: string;
  /** Sandbox lines, run in order, as typed at the prompt. */
  lines: string[];
  /** Text the step's output must contain. */
  expect?: string[];
}

export interface Demo {
  title: string;
  intro: string[];
  steps: DemoStep[];
}

/** The `!defense-round set` lines that give the selected tokens a sample's values (Vitality aside). */
function sets(values: SampleValues): string[] {
  return Object.entries(values).flatMap(([key, value]) => (key === 'vitality' ? [] : [`!defense-round set ${key} ${value}`]));
}

/** `!damage N ...` as an `!attack` on the defender picked with `target`. */
export function attackLine(hit: string): string {
  return `${hit.replace(/^!damage\b/, '!attack')} --ids @{target|Defender|token_id}`;
}

/** The label a prompt's first answer button starts with ("defend": "Defend", as in "Defend (55)"). */
function firstAnswerLabel(edition: EditionId): string {
  const word = editionOf(edition).check.answers.choices[0] ?? 'none';
  return word === 'none' ? 'No defense' : `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}

/** The fight an edition's sample makes: the switch, the worked example's numbers on Bob and the goblins, its moves, its hit as an attack Alice answers, the round's end. */
export function sampleDemo(edition: EditionId): Demo {
  const sample = editionOf(edition).table.sample;
  const steps: DemoStep[] = [];
  if (edition !== DEFAULT_EDITION) steps.push({ title: 'The GM switches the edition', lines: [`!defense-round config edition ${edition}`], expect: [`Edition is now ${edition}`] });
  if (sample) {
    const vitality = sample.hero.vitality;
    steps.push({
      title: 'Bob and the goblins get the worked example\'s numbers, on each token',
      lines: ['select Bob', ...sets(sample.hero), ...(vitality === undefined ? [] : [`edit Bob bar1 ${vitality}`]), 'select Goblin 1, Goblin 2', ...sets(sample.foe)],
      expect: Object.entries(sample.hero).flatMap(([key, value]) => (key === 'vitality' ? [] : [`${key} = ${value} on Bob`])),
    });
    // A defense made ahead is not made on one's own turn: Bob, first in the Turn Tracker, passes it.
    const offTurn = sample.example.moves.some((move) => /^!defend\b/i.test(move.line));
    if (offTurn) steps.push({ title: 'It is Goblin 1\'s turn', lines: ['next-turn'] });
    for (const move of sample.example.moves) steps.push({ title: `${move.says} (the rules say: ${move.expect})`, lines: ['select Bob', move.line] });
    // The exchange: the sample's hit declared by Goblin 1 as an attack on Bob, answered by Alice's click.
    steps.push({
      title: `Goblin 1 attacks Bob with !attack (the sample's hit, ${sample.hit}): Alice gets a whisper with a button per answer`,
      lines: [...(offTurn ? [] : ['next-turn']), 'select Goblin 1', 'target Bob', attackLine(sample.hit)],
      expect: ['DefenseRound (to Alice):'],
    });
    steps.push({ title: 'Alice answers with one click', lines: ['as Alice', `click "${firstAnswerLabel(edition)}"`, 'as GM'], expect: ['(Alice clicks: !defend --answer'] });
  } else {
    steps.push({ title: 'A plain hit on Goblin 1', lines: ['select Goblin 1', '!damage 10'] });
  }
  steps.push({ title: 'The GM ends the round', lines: ['!defense-round next-round'], expect: ['Round 2'] });
  return {
    title: `the ${edition} edition${sample ? `: ${sample.example.title}` : ''}`,
    intro: [sample ? 'Its worked example on the demo table, from the edition\'s sample.' : 'A plain hit on the demo table (the edition gives no sample).'],
    steps,
  };
}

/** The demo of an edition: its fight scripted by hand, or the one its sample makes. */
export function demoOf(edition: EditionId): Demo {
  return SCRIPTED_DEMOS[edition] ?? sampleDemo(edition);
}

/** Plays one edition's demo; resolves to false when a step crashed or missed an expected number. */
export async function runDemo(session: CliSession, edition: EditionId, startOutput: string, print: (text: string) => void, demo = demoOf(edition)): Promise<boolean> {
  let failures = 0;
  print(`=== DefenseRound demo: ${demo.title} ===`);
  for (const line of demo.intro) print(line);
  print(`\n${startOutput}`);
  for (const [i, step] of demo.steps.entries()) {
    print(`\n--- ${i + 1}/${demo.steps.length}. ${step.title} ---`);
    const outputs: string[] = [];
    for (const line of step.lines) {
      print(`${session.prompt()}${line}`);
      const result = await session.run(line);
      print(result.output);
      outputs.push(result.output);
    }
    const all = outputs.join('\n');
    const problems = [
      ...(step.expect ?? []).filter((text) => !all.includes(text)).map((text) => `expected "${text}", not shown`),
      ...(/SANDBOX CRASH|^error: /m.test(all) ? ['the step crashed or failed'] : []),
    ];
    for (const problem of problems) print(`(demo check failed: ${problem})`);
    failures += problems.length;
  }
  print(failures === 0 ? `\n=== End of the ${edition} demo: every step showed what it should ===` : `\n=== End of the ${edition} demo: ${failures} check(s) failed ===`);
  return failures === 0;
}
