// Incapacitation, dying, death and Vitality saves in the `soak` edition (The Defensive Round, "Death and
// Incapacitated"; rules.md, "Incapacitation and death" and "Switching editions"), and the life group's
// members built on them. Pure: Vitality and condition in, out.
import { at, type Condition, type VitalitySet } from '../edition';
import type { PercentileCheck } from '../check';
import { withLife, type Life, type SoakState } from './state';
import type { DamageStep, SoakCardStep } from './words';

// The Defensive Round: "When your character's Vitality reaches -10, your character is dead".
const DEATH_LINE = -10;
// Ruling: a dying character's successful save leaves it alive at -9, one above the death line.
const SAVED_FROM_DEATH_VITALITY = -9;
// The Defensive Round: a save stands the character "back up with 1 Vitality".
const STOOD_UP_VITALITY = 1;
// The Defensive Round: one save from a fall to 0..-9, three from a single hit to -10 or below.
const SAVES_WHEN_INCAPACITATED = 1;
const SAVES_WHEN_DYING = 3;

const ALIVE: Life = { condition: 'none', savesOwed: 0 };
const DEAD: Life = { condition: 'dead', savesOwed: 0 };

/** Conditions read from Vitality alone: on switching editions, or a token seen for the first time. */
export function lifeFromVitality(vitality: number): Life {
  if (vitality > 0) return { ...ALIVE };
  if (vitality > DEATH_LINE) return { condition: 'incapacitated', savesOwed: 0 };
  return { ...DEAD };
}

function lostSaves(life: Life): DamageStep[] {
  return life.savesOwed > 0 ? [{ kind: 'saves-lost', count: life.savesOwed }] : [];
}

/** Where a change of Vitality leaves the condition; `before`'s condition is trusted only below 0. */
function afterLoss(before: number, after: number, life: Life): { life: Life; steps: DamageStep[] } {
  // rules.md, Clarifications (soak): a dying token that loses any more Vitality is dead.
  if (life.condition === 'dying') {
    return { life: { ...DEAD }, steps: [...lostSaves(life), { kind: 'dead', cause: 'hit-while-dying' }] };
  }
  if (after > 0) return { life: { ...ALIVE }, steps: [] };
  if (before > 0) {
    // The Defensive Round: a hit that "instantly drops" Vitality to -10 or below gives three saves.
    if (after <= DEATH_LINE) {
      return { life: { condition: 'dying', savesOwed: SAVES_WHEN_DYING }, steps: [{ kind: 'dying', savesOwed: SAVES_WHEN_DYING }] };
    }
    return {
      life: { condition: 'incapacitated', savesOwed: SAVES_WHEN_INCAPACITATED },
      steps: [{ kind: 'incapacitated', savesOwed: SAVES_WHEN_INCAPACITATED }],
    };
  }
  // The Defensive Round: incapacitated characters "can still take damage until their vitality reaches -10".
  if (after <= DEATH_LINE) {
    return { life: { ...DEAD }, steps: [...lostSaves(life), { kind: 'dead', cause: 'reached-minus-10' }] };
  }
  // Ruling: already at or below 0, the token stays incapacitated and keeps any save it is owed
  // (a token marked 'none' down here gets no new save: saves come from a fall from above 0).
  return { life: { condition: 'incapacitated', savesOwed: life.savesOwed }, steps: [] };
}

/** A loss of Vitality from a hit. `applied` is false when the token is dead and takes nothing. */
export function applyVitalityLoss(
  before: number,
  loss: number,
  life: Life,
): { applied: boolean; after: number; life: Life; steps: DamageStep[] } {
  // rules.md: a dead token takes no more damage.
  if (life.condition === 'dead') {
    return { applied: false, after: before, life: { ...life }, steps: [{ kind: 'dead-no-damage', vitality: before }] };
  }
  const taken = Math.max(0, loss); // healing is not a loss
  const after = before - taken;
  const steps: DamageStep[] = [{ kind: 'vitality-change', before, after }];
  if (taken === 0) return { applied: true, after, life: { ...life }, steps }; // a loss of 0 changes nothing
  const settled = afterLoss(before, after, life);
  for (const step of settled.steps) steps.push(step);
  return { applied: true, after, life: settled.life, steps };
}

/** `--instant-kill`: Vitality to 0, never below; `applied` is false when it finds nothing to do. */
export function applyInstantKill(
  before: number,
  life: Life,
): { applied: boolean; after: number; life: Life; steps: DamageStep[] } {
  if (life.condition === 'dead') {
    return { applied: false, after: before, life: { ...life }, steps: [{ kind: 'dead-no-damage', vitality: before }] };
  }
  // The Defensive Round: "Instant Kill's only drop your character's Vitality to 0": at or below 0 it does nothing.
  if (before <= 0) {
    return { applied: false, after: before, life: { ...life }, steps: [{ kind: 'instant-kill', applied: false, before, after: before }] };
  }
  return {
    applied: true,
    after: 0,
    life: { condition: 'incapacitated', savesOwed: SAVES_WHEN_INCAPACITATED },
    steps: [
      { kind: 'instant-kill', applied: true, before, after: 0 },
      { kind: 'incapacitated', savesOwed: SAVES_WHEN_INCAPACITATED },
    ],
  };
}

/** A GM typing into the Vitality bar. The returned `after` is what the bar should hold. */
export function applyHandEdit(
  before: number,
  after: number,
  life: Life,
): { after: number; life: Life; steps: DamageStep[] } {
  if (after === before) return { after, life: { ...life }, steps: [] };

  if (after < before) {
    // commands.md: a dead token's bar is set back (the dead take no damage).
    if (life.condition === 'dead') {
      return { after: before, life: { ...life }, steps: [{ kind: 'set-back', attempted: after, vitality: before }] };
    }
    // A decrease by hand behaves as a loss of the difference; the bar keeps exactly what was typed
    // (recomputing before - (before - after) can round away from it at the edge of safe integers).
    const loss = applyVitalityLoss(before, before - after, life);
    const steps = loss.steps.map((step) => (step.kind === 'vitality-change' ? { ...step, after } : step));
    return { after: loss.applied ? after : loss.after, life: loss.life, steps };
  }

  const steps: DamageStep[] = [{ kind: 'vitality-change', before, after }];
  if (after > 0) {
    // commands.md: raising a dead token above 0 by hand is the GM's way to revive it.
    if (life.condition === 'dead') return { after, life: { ...ALIVE }, steps: [...steps, { kind: 'revived', before, vitality: after }] };
    if (life.condition !== 'none' || life.savesOwed > 0) {
      return { after, life: { ...ALIVE }, steps: [...steps, { kind: 'conditions-cleared' }] };
    }
    return { after, life: { ...ALIVE }, steps };
  }
  // Ruling: raising a dead token but not above 0 keeps it dead (only above 0 revives); the bar keeps the GM's value.
  if (life.condition === 'dead') return { after, life: { ...life }, steps };
  if (life.condition === 'dying') {
    // A dying token raised out of the death zone is incapacitated, its saves moot.
    if (after > DEATH_LINE) {
      return {
        after,
        life: { condition: 'incapacitated', savesOwed: 0 },
        steps: [...steps, ...lostSaves(life), { kind: 'incapacitated', savesOwed: 0 }],
      };
    }
    // Ruling: raised but still at -10 or below, it stays dying with the saves it is owed.
    return { after, life: { ...life }, steps };
  }
  // Ruling: an incapacitated token raised but still at or below 0 stays incapacitated and keeps its save.
  return { after, life: { condition: 'incapacitated', savesOwed: life.savesOwed }, steps };
}

/** `!defend --action save`: one Vitality save roll against `save_check`. */
export function resolveSave(
  vitality: number,
  life: Life,
  check: PercentileCheck,
): { ok: true; vitality: number; life: Life; steps: DamageStep[] } | { ok: false; reason: 'no-save-owed' } {
  // rules.md: the script refuses saves not owed.
  if (life.savesOwed <= 0 || (life.condition !== 'incapacitated' && life.condition !== 'dying')) {
    return { ok: false, reason: 'no-save-owed' };
  }
  const rolled = (savesLeft: number): DamageStep => ({
    kind: 'save-rolled', roll: check.roll, target: check.target, success: check.success, critical: check.critical, savesLeft,
  });

  if (life.condition === 'incapacitated') {
    // The Defensive Round: "1 save through to stand back up with 1 Vitality"; a failure leaves no save.
    if (check.success) {
      return {
        ok: true, vitality: STOOD_UP_VITALITY, life: { ...ALIVE },
        steps: [rolled(0), { kind: 'stood-up', before: vitality, vitality: STOOD_UP_VITALITY }],
      };
    }
    return { ok: true, vitality, life: { condition: 'incapacitated', savesOwed: 0 }, steps: [rolled(0)] };
  }

  // Dying. Ruling: the first success avoids death but does not stand the character up; it is then
  // incapacitated like anyone at "0 or less" and owes the one save that stands it up (The Defensive Round).
  if (check.success) {
    return {
      ok: true, vitality: SAVED_FROM_DEATH_VITALITY, life: { condition: 'incapacitated', savesOwed: SAVES_WHEN_INCAPACITATED },
      steps: [rolled(SAVES_WHEN_INCAPACITATED), { kind: 'saved-from-death', before: vitality, vitality: SAVED_FROM_DEATH_VITALITY }],
    };
  }
  const savesLeft = Math.min(SAVES_WHEN_DYING, life.savesOwed) - 1;
  if (savesLeft > 0) {
    return { ok: true, vitality, life: { condition: 'dying', savesOwed: savesLeft }, steps: [rolled(savesLeft)] };
  }
  // The Defensive Round: three saves "to avoid this terrible fate"; the last failure is death.
  return { ok: true, vitality, life: { ...DEAD }, steps: [rolled(0), { kind: 'dead', cause: 'saves-failed' }] };
}

/** The stored life, or one read from Vitality for a token whose life was never written. */
export function lifeOf(state: SoakState, vitality: number | null): Life {
  if (state.life) return { ...state.life };
  return vitality === null ? { ...ALIVE } : lifeFromVitality(vitality);
}

/** What markers and observers see: the stored condition, else the one Vitality gives. */
export function soakCondition(state: SoakState, vitality: number | null): Condition {
  return lifeOf(state, vitality).condition;
}

/** Entering the edition (rules.md, "Switching editions"): conditions come from Vitality, no saves owed. */
export function enterSoak(vitality: number | null, deadForGood: boolean): SoakState {
  if (deadForGood) return { life: { ...DEAD } };
  // A standing token keeps nothing (its life is read from Vitality when next needed). A token that
  // enters down keeps its condition, so the script remembers it and a later switch re-reads its markers.
  const life = vitality === null ? ALIVE : lifeFromVitality(vitality);
  return life.condition === 'none' ? {} : { life: { condition: life.condition, savesOwed: life.savesOwed } };
}

/** rules.md, "Rounds": pending defenses and per-round limits end with the round. */
export function endSoakRound(state: SoakState): SoakState {
  return state.life ? { life: state.life } : {};
}

export function isEmptySoakState(state: SoakState): boolean {
  return state.life === undefined && state.reactions === undefined && state.skillsVs === undefined;
}

/** Undo's "changed since" in words. */
export function describeSoakStateChange(left: SoakState, now: SoakState): string {
  if (JSON.stringify(left.life ?? null) !== JSON.stringify(now.life ?? null)) return 'has a new condition or saves owed';
  return 'has used reactions or skills since';
}

/** A "Now" step for a token that is down (none for one standing, unless `vitality` says where it stands). */
export function lifeNow(section: string, life: Life, vitality: number | null = null): SoakCardStep[] {
  return life.condition === 'none' && vitality === null ? [] : [at(section, { kind: 'life-now', life, vitality })];
}

/** Heals and plain hand edits (commands.md, "Hand edits"): the hand edit's rules, its steps and where it leaves the token. */
export function setSoakVitality(before: number, after: number, state: SoakState): VitalitySet<SoakState> {
  const result = applyHandEdit(before, after, lifeOf(state, before));
  return {
    vitality: result.after,
    state: withLife(state, result.life),
    steps: result.steps,
    conditions: result.steps.filter((step) => step.kind !== 'vitality-change'),
    now: lifeNow('Now', result.life)[0],
  };
}
