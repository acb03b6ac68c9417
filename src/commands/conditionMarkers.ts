// Condition and stance markers: one condition marker at a time, stance markers apart (rules.md).
import type { Settings } from '../state/settings';
import type { Condition } from '../rules/soak/life';
import { withMarkers } from '../roll20/markers';

export function markersForCondition(current: string, condition: Condition, settings: Settings): string {
  const { incapacitated, dying, dead } = settings.markers;
  const wanted = condition === 'none' ? [] : [settings.markers[condition]];
  return withMarkers(current, wanted, [incapacitated, dying, dead]);
}

export type StanceName = 'defensive' | 'reactive' | 'active' | 'full' | 'none' | 'passive';

export function markersForStance(current: string, stance: StanceName, settings: Settings): string {
  const { defensive, reactive, active, full } = settings.markers;
  const wanted = stance === 'defensive' || stance === 'reactive' || stance === 'active' || stance === 'full' ? [settings.markers[stance]] : [];
  return withMarkers(current, wanted, [defensive, reactive, active, full]);
}
