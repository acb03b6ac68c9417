// Fights scripted by hand for `npm start -- --demo EDITION`, each telling one edition's rules in
// 8 to 20 steps with the numbers each step must show (as a test names the edition it tests). An
// edition without one plays the fight its sample makes (mocks/cli-demo.ts). Every fight has an
// exchange: an `!attack` on Bob and Cleo that Alice and Ben each answer with one button click.
import type { Demo, DemoStep } from './cli-demo.js';

/** Goblin 1 attacks Bob and Cleo with `!attack` (the GM's selection and target picks): each player's whisper carries the buttons. */
function attackBoth(title: string, attack: string): DemoStep {
  return {
    title,
    lines: ['as GM', 'select Goblin 1', 'target Bob, Cleo', `${attack} --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id}`],
    expect: ['DefenseRound (to Alice):', 'DefenseRound (to Ben):'],
  };
}

/** Fights scripted by hand, each for one edition's rules, by the edition's id. */
export const SCRIPTED_DEMOS: Readonly<Record<string, Demo>> = {
  soak: {
    title: 'the soak edition (The Defensive Round): soak, protection and its wear, stances, falling and saving',
    intro: [
      'Bob (Alice\'s PC: 70 Vitality, Soak 20, Physical 100, Defense 30) and two goblins (30 Vitality,',
      'Soak 10, Physical 20, Defense 5, save_check 45). NPC cards are whispered to the GM; the table',
      'sees a short line. Rolls are given with --roll so the fight plays the same every time.',
    ],
    steps: [
      { title: 'The GM looks at the table', lines: ['tokens'], expect: ['controlled by: Alice'] },
      {
        title: 'Bob is on top of the Turn Tracker and cannot defend on his own turn: the GM moves on to Goblin 1',
        lines: ['next-turn'],
      },
      {
        title: 'Alice puts Bob in the reactive stance',
        lines: ['as Alice', 'select Bob', '!stance reactive'],
        expect: ['Stance: none -> reactive'],
      },
      {
        title: 'Goblin 1 swings at Bob; Alice defends and rolls 90 against defend_check 55',
        lines: ['!defend --action defend --roll 90'],
        expect: ['Defend d100 90 vs 55: failure', 'Apply damage to Bob'],
      },
      {
        title: 'The GM clicks the card\'s damage button and types the 200-point hit of The Defensive Round\'s example',
        lines: ['as GM', 'click "Apply damage to Bob" 200'],
        expect: ['200 x 80% soak = 160', '160 - 100 Physical = 60', '60 - 30 Defense = 30', 'Vitality 70 -> 40', 'Physical 100 -> 60'],
      },
      {
        title: 'The GM puts Goblin 2 in the defensive stance (5% of Fortitude off every hit)',
        lines: ['select Goblin 2', '!stance defensive'],
        expect: ['Stance: none -> defensive'],
      },
      {
        title: 'Goblin 2 is attacked and tries to evade: the GM rolls 80 against evade_check 35',
        lines: ['!defend --action evade --roll 80'],
        expect: ['Evade d100 80 vs 35: failure'],
      },
      {
        title: 'The GM applies the blow with the "Attack one target" macro (target picked, query defaults taken)',
        lines: ['target Goblin 2', '!damage [[?{Damage|70}]] --type ?{Type|Physical,physical|Magical,magical} --ids @{target|Target|token_id}'],
        expect: ['70 x 90% soak = 63', '38 - 1 defensive stance = 37', 'Vitality 30 -> -7', 'Falls: incapacitated', 'Incapacitated: one save owed', 'Goblin 2 is hit and falls, incapacitated.'],
      },
      {
        title: 'Goblin 2 owes one save: the GM rolls 20 against save_check 45',
        lines: ['!defend --action save --roll 20'],
        expect: ['Save d100 20 vs 45: success', 'Vitality -7 -> 1'],
      },
      {
        title: 'Alice tries to take back the GM\'s hit on Bob with its card\'s Undo button: players undo only their own damage',
        lines: ['as Alice', 'click 2'],
        expect: ['That damage is its sender\'s or the GM\'s to undo'],
      },
      {
        title: 'The GM presses the same button: Bob\'s Vitality and Physical come back, and chat says to what',
        lines: ['as GM', 'click 2'],
        expect: ['Damage undone: Bob (Vitality 40 -> 70, Physical 60 -> 100).'],
      },
      {
        title: 'The GM ends the round: pending defenses and reactions are cleared (Bob\'s failed defense made ahead too)',
        lines: ['!defense-round next-round'],
        expect: ['Round 2'],
      },
      attackBoth('Goblin 1 attacks Bob and Cleo at once with !attack, 30 physical: Alice and Ben each get a whisper with a button per answer', '!attack 30'),
      {
        title: 'Alice clicks Defend for Bob (the sandbox\'s die shows 20, against defend_check 55): the attack waits for Cleo',
        lines: ['as Alice', 'dice 20', 'click "Defend"'],
        expect: ['Defend d100 20 vs 55: success', '(Alice clicks: !defend --answer'],
      },
      {
        title: 'Ben clicks No defense for Cleo: the attack resolves; Bob blocks it, Cleo\'s light armor takes 1 + 1 of the 30',
        lines: ['as Ben', 'click "No defense"'],
        expect: ['(Ben clicks: !defend --answer', 'blocks the hit', 'Vitality 50 -> 22'],
      },
    ],
  },

  threshold: {
    title: 'the threshold edition (The Defensive Turn): hit chance against armor, Defense on a good check, death and the free save',
    intro: [
      'The rules text\'s Bob: 30 Vitality, armor Defense 10, Physical Armor 18. A hit chance above the',
      'armor hits; a successful defense check takes the armor\'s Defense off the damage. At 0 or below a',
      'character is dead, with one free save. The sandbox gives the table the edition\'s sample values',
      'with the switch (the goblins\' Physical Armor 12); Cleo keeps her light armor (Physical Armor 1).',
    ],
    steps: [
      {
        title: 'The GM switches the edition; the sandbox gives Bob the rules text\'s numbers, the goblins armor on the d20 scale',
        lines: ['!defense-round config edition threshold'],
        expect: ['Edition is now threshold', 'Bob: Vitality 30, Defense 10, Physical armor 18', 'Physical armor 12'],
      },
      { title: 'It is Goblin 1\'s turn: everyone else is in the Defensive Turn', lines: ['next-turn'] },
      {
        title: 'Alice makes Bob\'s defense check: 10 against defend_check 55',
        lines: ['as Alice', 'select Bob', '!defend --action defend --roll 10'],
        expect: ['Defend d100 10 vs 55: success'],
      },
      {
        title: 'Goblin 1 hits with a hit chance of 19 for 20 damage',
        lines: ['as GM', 'select Bob', '!damage 20 --hit 19'],
        expect: ['Hit chance 19 beats Physical Armor 18: a hit', '20 - 10 Defense = 10', 'Vitality 30 -> 20'],
      },
      {
        title: 'Its second attack rolls 18: at or under the armor, no damage',
        lines: ['!damage 20 --hit 18'],
        expect: ['no damage'],
      },
      {
        title: 'Goblin 2 (Physical Armor 12) is hit with a hit chance of 30 for 40, with no defense',
        lines: ['select Goblin 2', '!damage 40 --hit 30'],
        expect: ['Vitality 30 -> -10', 'Goblin 2 is hit and dies.'],
      },
      {
        title: 'Goblin 2 takes its free save: 10 against save_check 45',
        lines: ['!defend --action save --roll 10'],
        expect: ['Vitality -10 -> 1'],
      },
      {
        title: 'A save is only for the dead',
        lines: ['!defend --action save --roll 10'],
        expect: ['no save is owed'],
      },
      attackBoth('Goblin 1 attacks Bob and Cleo with !attack, hit chance 19 for 12: it beats both armors (18 and 1), so both are asked', '!attack 12 --hit 19'),
      {
        title: 'Alice clicks Defend for Bob (the sandbox\'s die shows 10, against 55): his Defense 10 will come off',
        lines: ['as Alice', 'dice 10', 'click "Defend"'],
        expect: ['Defend d100 10 vs 55: success', '(Alice clicks: !defend --answer'],
      },
      {
        title: 'Ben clicks No defense for Cleo: the attack resolves; Bob takes 12 - 10, Cleo all 12',
        lines: ['as Ben', 'click "No defense"'],
        expect: ['(Ben clicks: !defend --answer', 'Vitality 20 -> 18', 'Vitality 50 -> 38'],
      },
      {
        title: 'The GM ends the round',
        lines: ['as GM', '!defense-round next-round'],
        expect: ['Round 2'],
      },
    ],
  },

  opposed: {
    title: 'the opposed edition (Opposed Rolls): both sides roll, armor against damage, initiative for active defense',
    intro: [
      'The defender rolls 1d20 plus its mode\'s modifiers; the attack hits when it beats that, for the',
      'weapon\'s damage plus the margin. Damage above the armor score takes Vitality, otherwise stamina',
      '(Power). Active defense costs 5 initiative, full defense 10.',
    ],
    steps: [
      {
        title: 'The GM switches the edition',
        lines: ['!defense-round config edition opposed'],
        expect: ['Edition is now opposed'],
      },
      {
        title: 'Bob\'s values from the worked example of Opposed Rolls: passive_defense 10, armor_score 13',
        lines: ['select Bob', '!defense-round set passive_defense 10', '!defense-round set armor_score 13'],
        expect: ['passive_defense = 10 on Bob', 'armor_score = 13 on Bob'],
      },
      {
        title: 'Alice keeps Bob on passive defense',
        lines: ['as Alice', 'select Bob', '!stance passive'],
        expect: ['Bob already defends passively'],
      },
      {
        title: 'The GM gives Goblin 1 passive 10 and active +4, and makes it defend actively',
        lines: ['as GM', 'select Goblin 1', '!defense-round set passive_defense 10', '!defense-round set active_defense 4', '!stance active'],
        expect: ['Defense mode: passive -> active'],
      },
      {
        title: 'Bob is attacked: attack 24 against his roll of 8 + passive 10 (the worked example of Opposed Rolls)',
        lines: ['select Bob', '!damage 8 --attack 24 --defense-roll 8'],
        expect: ['8 + 10 passive = 18', 'Damage 8 + 6 margin = 14', '14 beats it, Vitality damage', 'Vitality 70 -> 56'],
      },
      {
        title: 'On his turn Bob attacks Goblin 1 with the "Attack one target" macro (query defaults taken; the attack is rolled)',
        lines: ['target Goblin 1', '!damage [[?{Weapon damage|8}]] --attack [[1d20+?{Attack bonus|0}]] --ap ?{Armor penetration|0} --ids @{target|Target|token_id}'],
        expect: ['Initiative 12 -> 7 (active defense costs 5)'],
      },
      {
        title: 'Bob attacks again with 10; Goblin 1 rolls 20 and beats him by 10 or more: a counterattack',
        lines: ['select Goblin 1', '!damage 8 --attack 10 --defense-roll 20'],
        expect: ['no hit', 'Initiative 7 -> 2', 'Counterattack'],
      },
      {
        title: 'A full defense would put Goblin 1 more than 20 below the current turn (Bob, 15): it falls back to active',
        lines: ['!damage 8 --attack 10 --defense-roll 5 --defense-mode full'],
        expect: ['Initiative 2 -> -3'],
      },
      {
        title: 'The GM takes that attack back: the initiative is given back',
        lines: ['!damage --undo', 'tokens'],
        expect: ['Damage undone: Goblin 1.', 'Damage undone (GM): Goblin 1 (Initiative -3 -> 2).', 'initiative: 2'],
      },
      attackBoth('Goblin 1 attacks Bob and Cleo with !attack: attack 20, weapon 8', '!attack 8 --attack 20'),
      {
        title: 'Alice clicks Passive for Bob (the sandbox\'s d20 shows 5): 5 + 10 passive = 15 does not beat 20',
        lines: ['as Alice', 'dice 5', 'click "Passive"'],
        expect: ['Passive defense, d20 5', '(Alice clicks: !defend --answer'],
      },
      {
        title: 'Ben clicks Passive for Cleo (d20 3): the attack resolves; 8 + 5 margin = 13 does not beat Bob\'s armor 13 (stamina), 8 + 9 = 17 beats Cleo\'s 3',
        lines: ['as Ben', 'dice 3', 'click "Passive"'],
        expect: ['(Ben clicks: !defend --answer', 'Power 30 -> 17', 'Vitality 50 -> 33'],
      },
    ],
  },
};
