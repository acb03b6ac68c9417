// The chat box's suggestions and flags hint read the active edition's specs (issue 31): every
// registered edition, an edition copied under a new id included, gets its own examples and no
// other edition's, and each suggested !attack declares an attack in the shipped script.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Fight } from '../../playground/src/fight.js';
import { attackOf, ATTACK_TARGET, flagHintsOf, suggestionsOf } from '../../playground/src/suggestions.js';
import { viewOf, plain } from '../../playground/src/chat.js';
import { allEditions, editionIds, editionOf, playableEditions, registerEdition, unregisterEdition } from '../../src/rules/editions.js';
import type { EditionId } from '../../src/rules/edition.js';

const COPY = 'copied-for-suggestions';

/** The lines an edition's own specs give: its examples, a !stance per mode and an !attack per hit. */
function ownLines(id: EditionId): Set<string> {
  const edition = editionOf(id);
  const hits = edition.hit.examples ?? [];
  return new Set([
    ...hits,
    ...(edition.check.refused === undefined ? (edition.check.examples ?? []) : []),
    ...edition.stance.modes.map((mode) => `!stance ${mode}`),
    ...hits.map(attackOf),
  ]);
}

// The editions the shipped script plays (the copy below lives only in this test's registry).
const SHIPPED = playableEditions();
// An edition the registry learns of with nothing else changed is suggested from its own specs too.
const first = allEditions()[0]!;
registerEdition({ ...first, id: COPY, hit: { ...first.hit, examples: [...(first.hit.examples ?? []), '!damage 7'] } });

describe('the chat box suggests the active edition\'s commands, read from its specs', () => {
  afterAll(() => unregisterEdition(COPY));

  it('covers the copied edition', () => {
    expect(editionIds()).toContain(COPY);
    expect(suggestionsOf(COPY)).toContain('!damage 7');
    expect(suggestionsOf(COPY)).toContain(`!attack 7 ${ATTACK_TARGET}`);
  });

  it.each(editionIds())('%s: its examples, stances and attacks, and no other edition\'s', (id) => {
    const lines = suggestionsOf(id);
    const edition = editionOf(id);
    expect(new Set(lines)).toEqual(ownLines(id));
    expect(lines.length).toBe(new Set(lines).size);
    for (const example of edition.hit.examples ?? []) expect(lines).toContain(example);
    for (const example of edition.check.examples ?? []) {
      // An edition that refuses !defend is offered none of its lines.
      if (edition.check.refused === undefined) expect(lines).toContain(example);
      else expect(lines).not.toContain(example);
    }
    for (const mode of edition.stance.modes) expect(lines).toContain(`!stance ${mode}`);
    for (const other of editionIds().filter((o) => o !== id)) {
      for (const line of ownLines(other)) if (!ownLines(id).has(line)) expect(lines).not.toContain(line);
    }
  });

  it.each(editionIds())('%s: the flags hint says each !damage flag as its --help does, and !defend\'s unless refused', (id) => {
    const edition = editionOf(id);
    const hints = flagHintsOf(id);
    const damage = hints.find((hint) => hint.command === '!damage')!;
    for (const flag of Object.keys(edition.hit.flags)) expect(damage.lines.some((line) => line.startsWith(`--${flag}`))).toBe(true);
    expect(damage.lines).toHaveLength(Object.keys(edition.hit.flags).length);
    const defend = hints.find((hint) => hint.command === '!defend');
    if (edition.check.refused !== undefined || Object.keys(edition.check.flags).length === 0) expect(defend).toBeUndefined();
    else for (const flag of Object.keys(edition.check.flags)) expect(defend!.lines.some((line) => line.startsWith(`--${flag}`))).toBe(true);
  });

  it.each(SHIPPED)('%s: each suggested !attack declares an attack on the demo table', async (id) => {
    const fight = await Fight.start(readFileSync('dist/defense-round.js', 'utf8'));
    await fight.switchEdition(id);
    expect(fight.edition()).toBe(id);
    const attacks = suggestionsOf(id).filter((line) => line.startsWith('!attack'));
    expect(attacks.length).toBe((editionOf(id).hit.examples ?? []).length);
    for (const line of attacks) {
      fight.selection = [fight.scene.tokens.Bob];
      const before = fight.entries.length;
      await fight.say(line.replace(ATTACK_TARGET, `--ids ${fight.scene.tokens['Goblin 1']}`));
      const said = fight.entries.slice(before).flatMap((entry) => (entry.kind === 'chat' ? [plain(viewOf(entry.record).body)] : []));
      expect(said.some((text) => /^Attack A\d+: Bob attacks Goblin 1\b/.test(text)), `${line}: ${said.join(' | ')}`).toBe(true);
    }
    expect(fight.entries.filter((entry) => entry.kind === 'crash')).toEqual([]);
  });
});
