// Plain words for each `threshold` step, one short line each, in The Defensive Turn's terms.
import type { Step } from '../edition';
import type { Difficulty } from './situations';
import { SITUATION_NAME } from '../situationNames';
import type { ThresholdCheckName, ThresholdStep } from './steps';

const CHECK: Record<ThresholdCheckName, string> = { defend: 'Defend', react: 'React', perceive: 'Perceive', save: 'Vitality save' };

function target(base: number, difficulty: Difficulty, mod: number, total: number): string {
  const divided = difficulty === 'hard' ? `${base} hard (half)` : difficulty === 'impossible' ? `${base} impossible (quarter)` : `${base}`;
  if (difficulty === 'normal' && mod === 0) return `${total}`;
  return `${divided}${mod === 0 ? '' : mod > 0 ? ` + ${mod}` : ` - ${-mod}`} = ${total}`;
}

export function thresholdText(step: Step, nameOf: (id: string) => string = (id) => id): string {
  const s = step as ThresholdStep;
  switch (s.kind) {
    case 'defense-used': {
      const from = s.source === 'pending' ? ' (from !defend)' : s.source === 'override' ? ' (--defense)' : '';
      // The row is "Defense": its line starts with the result, not the word again.
      if (s.result === 'success') return `Succeeded${from}: the armor's Defense applies`;
      if (s.result === 'fail') return `Failed${from}: the armor's Defense does not apply`;
      return `None${from}`;
    }
    case 'defense-does-not-answer':
      return `The pending defense was made against ${SITUATION_NAME[s.madeFor].toLowerCase()}, without the perceive check ${SITUATION_NAME[s.attack].toLowerCase()} needs: it counts as none`;
    case 'hit-check': {
      const bonus = s.bonus !== 0 ? ` + ${s.bonus} ${SITUATION_NAME[s.situation].toLowerCase()}` : '';
      const mod = s.mod !== 0 ? (s.mod > 0 ? ` + ${s.mod}` : ` - ${-s.mod}`) : '';
      const sum = bonus || mod ? `${s.hit}${bonus}${mod} = ${s.total}` : `${s.total}`;
      const armor = `${s.track === 'physical' ? 'Physical' : 'Magical'} Armor ${s.armor}`;
      return s.hits ? `Hit chance ${sum} beats ${armor}: a hit` : `Hit chance ${sum} vs ${armor}: no damage (at or under the armor)`;
    }
    case 'no-hit-chance':
      return s.given === null ? 'Area attack: no hit chance needed, every target is hit' : `Area attack: no hit chance needed (the given ${s.given} is not compared)`;
    case 'no-character':
      return 'No character, so no armor: no armor threshold and no Defense';
    case 'hit-decided':
      return 'No hit chance given: the hit is taken as decided';
    case 'armor-defense':
      return `${s.before} - ${s.defense} Defense = ${s.after}`;
    case 'vitality-change':
      // Unchanged: the title says "takes no damage", and no "70 -> 70" line is printed.
      return s.before === s.after ? '' : `Vitality ${s.before} -> ${s.after}`;
    case 'dead-at-0':
      return 'Dies at 0: after the free save, one try a round for 1d% EXP, for 4 rounds';
    case 'dead-no-damage':
      return `Dead: takes no damage (Vitality ${s.vitality})`;
    case 'set-back':
      return `Dead: takes no damage, Vitality set back from ${s.attempted} to ${s.vitality}`;
    case 'revived':
      return 'Revived: raised above 0 by hand, no longer dead';
    case 'check': {
      const result = s.success ? (s.critical ? 'success (critical)' : 'success') : 'failure';
      // Every check of The Defensive Turn is a percentile roll: the card says its die.
      return `${CHECK[s.check]} d100 ${s.roll} vs ${target(s.base, s.difficulty, s.mod, s.target)}: ${result}`;
    }
    case 'no-defense':
      return s.takesDamage
        ? `${SITUATION_NAME[s.situation]} not perceived: no defense, the attack hits`
        : `${SITUATION_NAME[s.situation]}: attack not perceived, no defense`;
    case 'not-in-time':
      return `React check failed: no ${s.action === 'skill' ? 'defensive skill' : 'counter attack'} in time`;
    case 'pending-defense': {
      // The result is the card's Result row: this line says where it is kept, once.
      const against = SITUATION_NAME[s.situation].toLowerCase();
      return s.for === null ? `Kept for the next hit on this token (${against})` : `Kept for the next hit on ${nameOf(s.for)} (${against})`;
    }
    case 'guard-kept':
      return `${nameOf(s.ally)} keeps the better defense: ${s.result}`;
    case 'announced': {
      const what = s.action === 'skill' ? (s.skillName ? `Defensive skill "${s.skillName}"` : 'Defensive skill') : s.action === 'counter' ? 'Counter attack' : 'Attack of opportunity';
      return `${what}${s.vs === null ? '' : ` against ${nameOf(s.vs)}`}`;
    }
    case 'spectator-drawn':
      return `${nameOf(s.spectator)} is drawn into the battle (Turn Tracker, initiative 0)`;
    case 'save-cost':
      return s.paid
        ? `Save costs 1d% EXP: ${s.cost}, EXP ${s.exp} -> ${s.exp - s.cost}`
        : `Save costs 1d% EXP: ${s.cost}, but EXP is ${s.exp}: not made, nothing taken, this round's try is used`;
    case 'stood-up':
      return `Stands back up: Vitality ${s.before} -> 1`;
    case 'save-failed':
      return s.triesLeft > 0 ? `Still dead: ${s.triesLeft} more ${s.triesLeft === 1 ? 'try' : 'tries'}, one a round, each for 1d% EXP` : 'Still dead: no try left after this round';
  }
}
