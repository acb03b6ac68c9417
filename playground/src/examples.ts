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
  /**
   * The GM's edits that give the demo table this edition's values (Bob as the example has him, the
   * goblins to match): made on every switch to the edition, and again by "Set up the example".
   */
  setup(fight: Fight): Promise<void>;
}

async function notBobsTurn(fight: Fight): Promise<void> {
  // "When it is not actively your turn ...": Bob, first in the Turn Tracker, could not defend.
  if (fight.turnOrder()[0]?.name === 'Bob') await fight.nextTurn();
}

/**
 * The GM sets a sheet value for this edition's table: the attribute the settings read for `key`,
 * written only when it differs (a value already there is no step and no chat).
 */
async function sheet(fight: Fight, char: string, key: string, current: string, max?: string): Promise<void> {
  const attribute = fight.settings().attributes[key] ?? key;
  const now = fight.attributeValue(char, attribute);
  if (now && now.current === current && (max === undefined || now.max === max)) return;
  await fight.editSheet(char, attribute, current, max);
}

async function bobVitality(fight: Fight, value: number): Promise<void> {
  const bar = fight.settings().bars.vitality ?? 'bar1';
  const bob = fight.tokens().find((token) => token.name === 'Bob')?.bars.find((b) => b.resource === 'vitality');
  if (bob && bob.value === String(value) && bob.max === String(value)) return;
  await fight.editBars('Bob', { [`${bar}_value`]: String(value), [`${bar}_max`]: String(value) });
}

export const EXAMPLES: Record<Edition, Example> = {
  soak: {
    edition: 'soak',
    title: 'Bob loses 30 Vitality to 200 physical (the README)',
    setupText: 'The demo table as it starts: Bob has Vitality 70, soak 20%, Physical 100, Defense 30; the goblins Physical 20, Defense 5.',
    moves: [{ says: 'Bob takes a 200 physical hit, no defense', line: '!damage 200', expect: 'Vitality 70 -> 40; Physical 100 -> 60' }],
    // The demo table as it starts (back from another edition, whose values it puts back).
    async setup(fight) {
      await bobVitality(fight, 70);
      await sheet(fight, 'Bob', 'armor_physical', '100', '100');
      await sheet(fight, 'Bob', 'armor_defense', '30');
      await sheet(fight, 'Goblin', 'armor_physical', '20', '20');
      await sheet(fight, 'Goblin', 'armor_defense', '5');
    },
  },
  threshold: {
    edition: 'threshold',
    title: 'Bob, from the rules text (The Defensive Turn)',
    setupText: "Bob gets Vitality 30, armor Defense 10 and Physical Armor 18 (the goblins Physical Armor 12, Defense 3); it is not Bob's turn.",
    moves: [
      { says: "Bob's defense check succeeds (55 to beat, rolls 10)", line: '!defend --action defend --roll 10', expect: 'a success: Defense applies to the next hit' },
      { says: 'an enemy hits with hit chance 19 for 20', line: '!damage 20 --hit 19', expect: '19 beats Physical Armor 18; 20 - 10 Defense = 10; Vitality 30 -> 20' },
    ],
    // Bob as the text has him; the goblins' armor on the same d20 scale (a hit chance above 12 hits).
    async setup(fight) {
      await bobVitality(fight, 30);
      await sheet(fight, 'Bob', 'armor_defense', '10');
      await sheet(fight, 'Bob', 'armor_physical', '18', '18');
      await sheet(fight, 'Goblin', 'armor_physical', '12', '12');
      await sheet(fight, 'Goblin', 'armor_defense', '3');
      await notBobsTurn(fight);
    },
  },
  opposed: {
    edition: 'opposed',
    title: 'The worked example of Opposed Rolls',
    setupText: 'Bob gets passive_defense 10 and armor_score 13 (active 4, full 2); the goblins passive 8, active 3, full 2, armor 6.',
    moves: [
      { says: 'attack 24 against a defense roll of 8 + passive 10 = 18, weapon 8', line: '!damage 8 --attack 24 --defense-roll 8', expect: 'a hit for 8 + 6 = 14, above armor 13: Vitality damage' },
    ],
    // Bob as the text has him; every token with defenses and armor, so active and full defense mean something.
    async setup(fight) {
      await bobVitality(fight, 70);
      await sheet(fight, 'Bob', 'passive_defense', '10');
      await sheet(fight, 'Bob', 'active_defense', '4');
      await sheet(fight, 'Bob', 'full_defense', '2');
      await sheet(fight, 'Bob', 'armor_score', '13');
      await sheet(fight, 'Goblin', 'passive_defense', '8');
      await sheet(fight, 'Goblin', 'active_defense', '3');
      await sheet(fight, 'Goblin', 'full_defense', '2');
      await sheet(fight, 'Goblin', 'armor_score', '6');
    },
  },
};
