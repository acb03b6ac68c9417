// The words every edition's commands say to lines built from their own flags, kept as a fixture:
// moving an edition's parsing from hand-written code to the generic parser (text/flags.ts) must
// leave every refusal, and every card a well-formed line makes, as it was. Regenerate with
// RECORD_CORPUS=1 only when a change of words is meant.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allEditions } from '../../src/rules/editions';
import { openTable, texts } from '../support/table';

const FIXTURE = join(__dirname, '..', 'fixtures', 'parse-corpus.json');
const WORDS = ['', 'x', '5', '-3', '0', '100', '101', '1000', 'front', 'behind', 'projectile', 'covert', 'spell-fast', 'spell-unseen', 'spectator', 'physical', 'magical', 'energy', 'soul', 'power', 'success', 'fail', 'none', 'hard', 'guard', 'defend', 'save', 'evade', 'react', 'counter', 'skill', 'active', 'full', 'GOBLIN', 'Shield Wall'];
const AMOUNTS = ['12', '', '2d6', '-5', '12 13', '0', '30'];
const COMMANDS = ['!damage', '!defend', '!attack'];

/** A small deterministic generator (the corpus must be the same on every run). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

function linesFor(own: Record<string, string[]>, others: string[], seed: number, goblin: string, defender: string): string[] {
  const random = lcg(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const lines: string[] = [];
  for (let i = 0; i < 300; i += 1) {
    const command = pick(COMMANDS);
    const parts = [command];
    if (command !== '!defend') parts.push(pick(AMOUNTS));
    // Most lines give the command's own flags (their values and combinations are what is parsed).
    const flags = own[command]!.length > 0 ? own[command]! : others;
    if (command === '!defend' && random() < 0.8) parts.push('--action', pick(['defend', 'evade', 'react', 'counter', 'skill', 'save', 'guard', 'opportunity']));
    const count = Math.floor(random() * 4);
    for (let j = 0; j < count; j += 1) {
      const flag = random() < 0.9 ? pick(flags) : pick(others);
      const word = pick(WORDS);
      parts.push(`--${flag}`, word === 'GOBLIN' ? goblin : word);
    }
    // An attack is Goblin 1's, on its turn (out of turn only a counter attack is declared): on Bob.
    if (command === '!attack') parts.push('--ids', defender);
    lines.push(parts.filter((part) => part !== '').join(' '));
  }
  return lines;
}

describe('the words each edition says to lines of its own flags', () => {
  const recorded: Record<string, string[][]> = existsSync(FIXTURE) ? JSON.parse(readFileSync(FIXTURE, 'utf8')) : {};
  const record = process.env.RECORD_CORPUS === '1';
  const editions = ['soak', 'threshold', 'opposed'].filter((id) => allEditions().some((edition) => edition.id === id));
  for (const id of editions) {
    it(`${id}: every line says what it said`, async () => {
      const table = await openTable('bundle');
      try {
        await table.say('GM', `!defense-round config edition ${id}`);
        await table.passTurn();
        const edition = allEditions().find((one) => one.id === id)!;
        const own = {
          '!damage': Object.keys(edition.hit.flags).sort(),
          '!defend': Object.keys(edition.check.flags).sort(),
          '!attack': [...Object.keys(edition.hit.flags), ...Object.keys(edition.check.answers.flags)].sort(),
        };
        const others = ['pierce', 'action', 'roll', 'hit', 'situation', 'vs', 'mod'];
        const said: string[][] = [];
        for (const line of linesFor(own, others, id.length * 7919, table.id('Goblin 1'), table.id('Bob'))) {
          said.push([line, ...texts(await table.say('GM', line, [line.startsWith('!attack') ? 'Goblin 1' : 'Bob']))]);
          // Each line a few seconds after the last: the same attack again at once is a double click (issue 33), not what is parsed here.
          table.mock.advance(5000);
        }
        if (record) recorded[id] = said;
        else expect(said).toEqual(recorded[id]);
      } finally {
        table.close();
      }
      if (record) writeFileSync(FIXTURE, `${JSON.stringify(recorded, null, 1)}\n`);
    }, 60_000);
  }
});
