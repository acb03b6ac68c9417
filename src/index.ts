// Entry point of the bundle: start on Roll20's `ready`, and expose `DefenseRound` to other scripts.
import { SCRIPT_VERSION } from './version';
import { startDefenseRound } from './app';
import { guarded } from './roll20/guard';
import { addObserver } from './roll20/observers';
import { onEvent } from './roll20/sandbox';

onEvent('ready', guarded('starting up', () => {
  startDefenseRound();
}));

/** Other scripts: `DefenseRound.onDamage((token, before, after, outcome) => ...)`. */
export const version = SCRIPT_VERSION;
export function onDamage(observer: unknown): boolean {
  return addObserver(observer);
}
