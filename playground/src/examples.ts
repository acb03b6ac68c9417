// The rules' worked examples (docs/rules.md), one per edition, on the demo table: "Set up" makes
// the GM's hand edits that put Bob's numbers where the example has them; the moves are the chat
// lines to try, each with what the rules say should come out.
import type { Edition, Fight } from './fight.js';

export interface ExampleMove {
  /** What the move is, in the rules' words. */
  says: string;
  line: string;
  /** What the rules say comes out. */
  expect: string;
}

export interface Example {
  edition: Edition;
  title: string;
  /** Bob's numbers in the example, as the setup writes them. */
  setupText: string;
  moves: ExampleMove[];
  /** The GM's edits that set the example up (none when the demo table is the example). */
  setup(fight: Fight): Promise<void>;
}

async function notBobsTurn(fight: Fight): Promise<void> {
  // "When it is not actively your turn ...": Bob, first in the Turn Tracker, could not defend.
  if (fight.turnOrder()[0]?.name === 'Bob') await fight.nextTurn();
}

async function bobVitality(fight: Fight, value: number): Promise<void> {
  const bar = fight.settings().bars.vitality ?? 'bar1';
  await fight.editBars('Bob', { [`${bar}_value`]: String(value), [`${bar}_max`]: String(value) });
}

export const EXAMPLES: Record<Edition, Example> = {
  soak: {
    edition: 'soak',
    title: 'Bob loses 30 Vitality to 200 physical (the README)',
    setupText: 'The demo table as it starts: Bob has Vitality 70, soak 20%, Physical 100, Defense 30.',
    moves: [{ says: 'Bob takes a 200 physical hit, no defense', line: '!damage 200', expect: 'Vitality 70 -> 40; Physical 100 -> 60' }],
    async setup() {},
  },
  threshold: {
    edition: 'threshold',
    title: 'Bob, from the rules text (The Defensive Turn)',
    setupText: "Bob gets Vitality 30, armor Defense 10 and Physical Armor 18; it is not Bob's turn.",
    moves: [
      { says: "Bob's defense check succeeds (55 to beat, rolls 10)", line: '!defend --action defend --roll 10', expect: 'a success: Defense applies to the next hit' },
      { says: 'an enemy hits with hit chance 19 for 20', line: '!damage 20 --hit 19', expect: '19 beats Physical Armor 18; 20 - 10 Defense = 10; Vitality 30 -> 20' },
    ],
    async setup(fight) {
      await bobVitality(fight, 30);
      await fight.editSheet('Bob', fight.settings().attributes.armor_defense ?? 'armor_defense', '10');
      await fight.editSheet('Bob', fight.settings().attributes.armor_physical ?? 'armor_physical', '18', '18');
      await notBobsTurn(fight);
    },
  },
  opposed: {
    edition: 'opposed',
    title: 'The worked example of Opposed Rolls',
    setupText: 'Bob gets passive_defense 10 and armor_score 13.',
    moves: [
      { says: 'attack 24 against a defense roll of 8 + passive 10 = 18, weapon 8', line: '!damage 8 --attack 24 --defense-roll 8', expect: 'a hit for 8 + 6 = 14, above armor 13: Vitality damage' },
    ],
    async setup(fight) {
      await fight.editSheet('Bob', fight.settings().attributes.passive_defense ?? 'passive_defense', '10');
      await fight.editSheet('Bob', fight.settings().attributes.armor_score ?? 'armor_score', '13');
    },
  },
};
