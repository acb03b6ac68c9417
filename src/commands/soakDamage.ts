// One hit on one token in the `soak` edition: read what the rules need, resolve, write back.
// Shared by `!damage` and by hand edits read through armor.
import { resolveSoakDamage, type SoakDamageOutcome } from '../rules/soak/resolveDamage';
import { defensiveStanceReduction, type SoakArmor } from '../rules/soak/damage';
import type { DamageTrack } from '../rules/soak/damageSteps';
import type { AttributeKey } from '../state/settings';
import { readValue, type TokenSnapshot } from '../roll20/read';
import { currentProtection, protectionIsPerToken, writeBar, writeProtection } from '../roll20/write';
import type { ProtectionPlace } from './history';
import { notifyObservers } from '../roll20/observers';
import { commitLife, currentLife, resourcesOf } from './tokenLife';
import { peekRecord, tokenRecord, type App } from './context';

export interface SoakDamageOrder {
  amount: number;
  track: DamageTrack;
  piercePercent: number;
  to: 'vitality' | 'soul' | 'power';
  instantKill: boolean;
  defenseOverride: 'success' | 'fail' | 'none' | null;
}

const TRACK_KEYS: Record<DamageTrack, { protection: AttributeKey; reduction: AttributeKey; natural: AttributeKey }> = {
  physical: { protection: 'armor_physical', reduction: 'armor_defense', natural: 'natural_defense' },
  magical: { protection: 'armor_magical', reduction: 'armor_spirit', natural: 'natural_spirit' },
};

/** Where this hit would wear armor: the attribute of a unique token, or per token in state. */
export function protectionPlaceOf(app: App, snapshot: TokenSnapshot, order: SoakDamageOrder): ProtectionPlace | undefined {
  if (order.to !== 'vitality' || order.instantKill) return undefined;
  const record = peekRecord(app, snapshot.id);
  const base = readValue(snapshot, TRACK_KEYS[order.track].protection, record, app.store.settings, app.attributes);
  if (!base.present) return undefined;
  return protectionIsPerToken(snapshot, base) || !base.attribute
    ? { track: order.track }
    : { track: order.track, attributeId: base.attribute.id };
}

/**
 * Resolves and applies one hit. `vitality` is the bar's number (checked by the caller). Returns the
 * outcome, for the chat breakdown.
 */
export function applySoakDamage(app: App, snapshot: TokenSnapshot, vitality: number, order: SoakDamageOrder): SoakDamageOutcome {
  const settings = app.store.settings;
  const record = peekRecord(app, snapshot.id);
  const value = (key: AttributeKey) => readValue(snapshot, key, record, settings, app.attributes);
  const keys = TRACK_KEYS[order.track];
  const hitsArmor = order.to === 'vitality' && !order.instantKill;

  // A token with no character and no overrides has no armor: the hit is unreduced (rules.md).
  let armor: SoakArmor | null = null;
  const protectionBase = hitsArmor ? value(keys.protection) : undefined;
  if (hitsArmor && (snapshot.character || record?.overrides)) {
    const base = protectionBase!;
    armor = {
      soakPercent: value('armor_soak').current ?? 0,
      protection: currentProtection(snapshot, order.track, base, record) ?? 0,
      ...(base.max !== null ? { protectionMax: base.max } : {}),
      armorReduction: value(keys.reduction).current ?? 0,
      naturalReduction: value(keys.natural).current ?? 0,
    };
  }
  const stanceReduction =
    hitsArmor && record?.stance === 'defensive' ? defensiveStanceReduction(value('fortitude').current ?? 0) : 0;
  // A Vitality bar that holds no number is only allowed for Soul/Power hits: it is neither read nor written.
  const vitalityReadable = snapshot.bars.vitality.value !== null;
  const life = vitalityReadable ? currentLife(app, snapshot.id, vitality) : (record?.life ?? { condition: 'none', savesOwed: 0 });

  const outcome = resolveSoakDamage({
    amount: order.amount,
    track: order.track,
    piercePercent: order.piercePercent,
    to: order.to,
    instantKill: order.instantKill,
    pendingDefense: record?.pendingDefense ?? null,
    defenseOverride: order.defenseOverride,
    bars: { vitality, soul: snapshot.bars.soul.value, power: snapshot.bars.power.value },
    armor,
    stanceReduction,
    life,
  });

  // `vitality` is where the hit started: for a hand edit, the value before the user typed.
  const before = { ...resourcesOf(snapshot, life.condition, snapshot.statusmarkers), vitality: vitalityReadable ? vitality : null };
  const previous = {
    [`${snapshot.bars.vitality.bar}_value`]: snapshot.bars.vitality.value === vitality ? snapshot.bars.vitality.raw : vitality,
    statusmarkers: snapshot.statusmarkers,
  };
  // The pending defense is used up by this hit, whatever decided it (rules.md, Clarifications).
  const stored = tokenRecord(app, snapshot.id);
  delete stored.pendingDefense;
  if (vitalityReadable && outcome.bars.vitality !== snapshot.bars.vitality.value) writeBar(snapshot, 'vitality', outcome.bars.vitality);
  for (const bar of ['soul', 'power'] as const) {
    const after = outcome.bars[bar];
    if (after !== null && after !== snapshot.bars[bar].value) writeBar(snapshot, bar, after);
  }
  if (armor && protectionBase && outcome.protectionAfter !== null && outcome.protectionAfter !== armor.protection) {
    writeProtection(snapshot, order.track, protectionBase, stored, outcome.protectionAfter);
  }
  const markers = commitLife(app, snapshot, outcome.life);
  notifyObservers(
    snapshot.token,
    before,
    { vitality: vitalityReadable ? outcome.bars.vitality : null, soul: outcome.bars.soul, power: outcome.bars.power, statusmarkers: markers, condition: outcome.life.condition },
    outcome,
    previous,
  );
  return outcome;
}
