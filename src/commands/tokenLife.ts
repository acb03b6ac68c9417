// A token's condition between commands: read from state (or from Vitality for a token never
// tracked), and written back with its status marker in one step.
import { lifeFromVitality, type Life } from '../rules/soak/life';
import type { TokenSnapshot } from '../roll20/read';
import { writeMarkers } from '../roll20/write';
import type { TokenResources } from '../roll20/observers';
import { markersForCondition } from './conditionMarkers';
import { peekRecord, pruneRecord, tokenRecord, type App } from './context';

/** A stored life, or one read from Vitality for a token the script has not tracked yet. */
export function currentLife(app: App, tokenId: string, vitality: number): Life {
  return peekRecord(app, tokenId)?.life ?? lifeFromVitality(vitality);
}

/** Stores the new life and shows its condition marker; returns the token's markers after. */
export function commitLife(app: App, snapshot: TokenSnapshot, life: Life): string {
  const record = tokenRecord(app, snapshot.id);
  record.life = life.condition === 'none' && life.savesOwed === 0 ? undefined : { ...life };
  const markers = markersForCondition(snapshot.statusmarkers, life.condition, app.store.settings);
  writeMarkers(snapshot, markers);
  pruneRecord(app, snapshot.id);
  return markers;
}

/** What observers are told about a token: its three resources, markers and condition. */
export function resourcesOf(snapshot: TokenSnapshot, condition: string, markers: string): TokenResources {
  return {
    vitality: snapshot.bars.vitality.value,
    soul: snapshot.bars.soul.value,
    power: snapshot.bars.power.value,
    statusmarkers: markers,
    condition,
  };
}
