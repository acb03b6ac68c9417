// Plain words for each `opposed` step (Opposed Rolls), one short line each: the attack's
// breakdown, and its cards' layout (title, public line, the bar moved, where the token stands now).
import { hitTitle, type Step, type WordsContext } from '../edition';
import type { DefenseMode } from './state';

/** The attack's breakdown, as `resolveOpposedAttack` says it. */
export type AttackStep =
  | { kind: 'overwhelmed'; wanted: DefenseMode; cost: number; initiative: number; current: number; currentHidden?: true; limit: number; used: DefenseMode }
  | { kind: 'no-initiative-entry'; mode: DefenseMode }
  | { kind: 'current-not-a-number'; mode: DefenseMode }
  | { kind: 'defense-roll'; mode: DefenseMode; roll: number; passive: number; active: number; full: number; total: number }
  | { kind: 'attack'; attack: number; defense: number; hits: boolean }
  | { kind: 'damage'; weapon: number; margin: number; damage: number }
  | { kind: 'armor'; armorScore: number; penetration: number; effective: number; damage: number; pierces: boolean }
  | { kind: 'initiative'; mode: DefenseMode; cost: number; before: number; after: number }
  | { kind: 'counterattack'; margin: number };

export type OpposedStep =
  | AttackStep
  /** `damage` and `to` (or `missed`): the title tells what the attack did. */
  | { kind: 'attack-title'; who: string; attack: number; mode: DefenseMode; damage?: number; to?: 'vitality' | 'stamina'; falls?: boolean; missed?: true }
  | { kind: 'attack-summary'; who: string; hits: boolean; stamina: boolean; falls: boolean; counter: boolean }
  /** The bar the hit took its damage from. */
  | { kind: 'bar-moved'; to: 'vitality' | 'stamina'; before: number; after: number }
  /** At or below 0; `typed`: said of a hand edit (shorter). */
  | { kind: 'down-now'; dead?: true; typed?: true }
  | { kind: 'loss-title'; who: string; loss: number }
  /** A loss typed into Vitality, read against the armor (commands.md, "Hand edits"). */
  | { kind: 'typed-loss'; loss: number; armor: number; toStamina: boolean }
  | { kind: 'typed-loss-result'; toStamina: boolean; vitality: number; stamina: number | null; loss: number }
  | { kind: 'vitality-change'; before: number; after: number }
  /** An answer to an attack: the mode chosen and its d20. */
  | { kind: 'mode-answer'; who: string; mode: DefenseMode; roll: number }
  | { kind: 'mode-roll'; mode: DefenseMode; roll: number };

export const MODE_EFFECT: Record<DefenseMode, string> = {
  passive: 'passive_defense only; costs no initiative',
  active: 'adds active_defense; costs 5 initiative each time',
  full: 'adds active_defense and full_defense; costs 10 initiative each time',
};

/** An answer's button. */
export const MODE_LABEL: Record<DefenseMode, string> = { passive: 'Passive', active: 'Active (-5 initiative)', full: 'Full (-10)' };

const ADVERB: Record<DefenseMode, string> = { passive: 'passively', active: 'actively', full: 'fully' };

const signed = (n: number) => (n < 0 ? ` - ${-n}` : ` + ${n}`);

/** Words for any step of this edition. */
export function opposedWords(step: Step, nameOf: (id: string) => string = (id) => id, context?: WordsContext): string {
  const s = step as OpposedStep;
  switch (s.kind) {
    case 'overwhelmed':
      return `Overwhelmed: ${s.wanted} defense costs ${s.cost} initiative, and ${s.initiative} - ${s.cost} is more than ${s.limit} below the current turn${s.currentHidden ? '' : ` (${s.current})`}: ${s.used} defense instead`;
    case 'no-initiative-entry':
      return `Not in the Turn Tracker (or its initiative is not a number): ${s.mode} defense costs no initiative`;
    case 'current-not-a-number':
      return `The current turn's initiative is not a number: the cost is paid, the overwhelm limit is not checked`;
    case 'defense-roll': {
      const parts = `d20 ${s.roll}${signed(s.passive)} passive${s.mode !== 'passive' ? `${signed(s.active)} active` : ''}${s.mode === 'full' ? `${signed(s.full)} full` : ''}`;
      return `Defense (${s.mode}) ${parts} = ${s.total}`;
    }
    case 'attack':
      return s.hits ? `Attack ${s.attack} beats defense ${s.defense}: a hit` : `Attack ${s.attack} does not beat defense ${s.defense}: no hit`;
    case 'damage':
      return `Damage ${s.weapon} + ${s.margin} margin = ${s.damage}`;
    case 'armor':
      return `Effective armor ${s.armorScore} - ${s.penetration} AP = ${s.effective}: ${s.damage} ${s.pierces ? 'beats it, Vitality damage' : 'does not beat it, stamina damage'}`;
    case 'initiative':
      return `Initiative ${s.before} -> ${s.after} (${s.mode} defense costs ${s.cost})`;
    case 'counterattack':
      return `Counterattack: the defense beats the attack by ${s.margin} (its damage is the table's call)`;
    case 'attack-title': {
      const name = nameOf(s.who);
      const what = s.missed || s.damage === undefined ? `${name} is missed` : `${name} loses ${s.damage} ${s.to === 'stamina' ? 'stamina' : 'Vitality'}${s.falls ? ' and falls' : ''}`;
      return hitTitle(what, `attack ${s.attack} vs ${s.mode} defense`, context);
    }
    case 'attack-summary': {
      const counter = s.counter ? ' and scores a counterattack' : '';
      return s.hits ? `${nameOf(s.who)} is hit${s.stamina ? ' (stamina)' : ''}${s.falls ? ' and falls' : ''}${counter}.` : `${nameOf(s.who)} is missed${counter}.`;
    }
    case 'bar-moved':
      return s.before === s.after ? '' : `${s.to === 'vitality' ? 'Vitality' : 'Stamina'} ${s.before} -> ${s.after}`;
    case 'down-now':
      return s.dead ? 'Dead' : `Vitality at or below 0 (marked incapacitated${s.typed ? '' : '; Opposed Rolls has no death rules'})`;
    case 'loss-title':
      return `${nameOf(s.who)} loses ${s.loss}`;
    case 'typed-loss':
      return `${s.loss} typed into Vitality, ${s.toStamina ? 'not above' : 'above'} armor ${s.armor}: ${s.toStamina ? 'stamina damage instead' : 'Vitality damage'}`;
    case 'typed-loss-result':
      return s.toStamina ? `Vitality stays ${s.vitality}; Stamina ${s.stamina} -> ${(s.stamina ?? 0) - s.loss}` : `Vitality ${s.vitality} -> ${s.vitality - s.loss}`;
    case 'vitality-change':
      return s.before === s.after ? '' : `Vitality ${s.before} -> ${s.after}`;
    case 'mode-answer':
      return `${nameOf(s.who)} defends ${ADVERB[s.mode]}, d20 ${s.roll}`;
    case 'mode-roll':
      return `${s.mode.charAt(0).toUpperCase()}${s.mode.slice(1)} defense, d20 ${s.roll}`;
  }
}
