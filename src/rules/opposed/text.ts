// Plain words for each `opposed` step (seed 003), one short line each.
import type { Step } from '../edition';
import type { OpposedStep } from './attack';

const signed = (n: number) => (n < 0 ? ` - ${-n}` : ` + ${n}`);

export function opposedText(step: Step): string {
  const s = step as OpposedStep;
  switch (s.kind) {
    case 'overwhelmed':
      return `Overwhelmed: ${s.wanted} defense costs ${s.cost} initiative, and ${s.initiative} - ${s.cost} is more than ${s.limit} below the current turn${s.currentHidden ? '' : ` (${s.current})`}: ${s.used} defense instead`;
    case 'no-initiative-entry':
      return `Not in the Turn Tracker (or its initiative is not a number): ${s.mode} defense costs no initiative`;
    case 'current-not-a-number':
      return `The current turn's initiative is not a number: the cost is paid, the overwhelm limit is not checked`;
    case 'defense-roll': {
      const parts = `${s.roll}${signed(s.passive)} passive${s.mode !== 'passive' ? `${signed(s.active)} active` : ''}${s.mode === 'full' ? `${signed(s.full)} full` : ''}`;
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
  }
}
