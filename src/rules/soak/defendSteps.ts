// The steps of a `soak` `!defend`, as data, so the chat shows every rule with its numbers
// (commands.md, "Output"). Numbers, names from the rules and opaque ids only; no text.

import type { PenalisedCheck, SoakSituation } from './situations';

/** The actions that roll a check (counter and skill are announced, not rolled). */
export type RolledDefendAction = 'defend' | 'evade' | 'react';

export type DefendStep =
  /** The perception gate of behind, distracted, covert, spectator. `target` = `baseTarget + mod`. */
  | {
      kind: 'perception-check';
      situation: SoakSituation;
      roll: number;
      baseTarget: number;
      mod: number;
      target: number;
      success: boolean;
      critical: boolean;
    }
  /** The gate failed: no defensive action (a spectator's attack then simply hits). */
  | { kind: 'no-defensive-action'; situation: SoakSituation; takesDamage: boolean }
  /** The unseen spell's mental check and what it did to the evade penalty. */
  | {
      kind: 'mental-check';
      roll: number;
      target: number;
      success: boolean;
      critical: boolean;
      penaltyBefore: number;
      penaltyAfter: number;
    }
  /** A situation's penalty to the check (after any mental check); only when not 0. */
  | { kind: 'situation-penalty'; situation: SoakSituation; check: PenalisedCheck; penalty: number }
  /** A situation other than `front` that leaves this check as it is (e.g. defend against a gun). */
  | { kind: 'situation-no-penalty'; situation: SoakSituation; check: PenalisedCheck }
  /** An ally's aid (`--aided-by`), from its successful reaction check. */
  | { kind: 'aided'; bonus: number; by?: string }
  /** The check's own modifier (`--mod`); only when not 0. */
  | { kind: 'modifier'; mod: number }
  /** The action's check. `target` = `baseTarget` + the sum of `adjustments` (penalty, aid, mod, in order). */
  | {
      kind: 'action-check';
      action: RolledDefendAction;
      roll: number;
      baseTarget: number;
      adjustments: number[];
      target: number;
      success: boolean;
      critical: boolean;
    }
  /** What the next `!damage` on this token will use. */
  | { kind: 'pending-defense'; result: 'success' | 'fail' }
  /** The reaction check's result against this attacker, kept for the round. */
  | { kind: 'reaction-recorded'; vs: string; success: boolean }
  /** A counter attack, for oneself or (with Reactive Guard) for an ally; the counter is the defender's own attack. */
  | { kind: 'counter-announced'; vs: string; ally: string | null; skillName: string | null }
  /** A defensive skill, announced; the GM and player resolve its effect. */
  | { kind: 'skill-announced'; skillName: string | null; vs: string | null; ally: string | null }
  /** Countering a spectator makes it a participant (Turn Tracker, initiative 0). */
  | { kind: 'spectator-drawn'; spectator: string };

export type DefendStepKind = DefendStep['kind'];
