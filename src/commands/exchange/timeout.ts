// The answer time limit (commands.md, "!attack", answer-timeout): an attack still waiting that long
// after its declaration resolves by itself, as the GM's Resolve now would (a player's attack on the
// GM's tokens too): who has not answered takes the rules' default, and the result says "No answer
// in time". When the time started is kept with the attack, so the limit outlives a restart. One
// timer, for the next deadline, is armed at each declaration, at start-up and on a setting's change.
import { parseLine } from '../../text/args';
import type { OpenAttack } from '../../state/attacks';
import { guarded } from '../../roll20/guard';
import { cancelRun, clockNow, runIn } from '../../roll20/sandbox';
import type { App, CommandContext } from '../context';
import { isResolving, openAttack, unanswered } from './attacks';
import { resolveAttack } from './resolve';

/** Each app's one timer, and the limit it was armed with (memory only: a restart arms it again from `state`). */
const timers = new WeakMap<App, { id?: unknown; limit: number }>();
/** Attacks the limit has resolved, or tried to: never again by the timer, whatever came of it (no loop on a failure). */
const tried = new WeakSet<OpenAttack>();

/** A new attack: its answer time starts now. */
export function startAnswerTime(app: App, attack: OpenAttack): void {
  attack.waitingSince = clockNow();
  armAnswerTimeouts(app);
}

/** (Re)arms the one timer for the earliest deadline of the open attacks; none when the limit is off or the script paused. */
export function armAnswerTimeouts(app: App): void {
  const limit = limitMs(app);
  const armed = timers.get(app);
  cancelRun(armed?.id);
  timers.set(app, { limit });
  const now = clockNow();
  // A new limit counts from now for the attacks open: setting it never resolves one at once.
  if (armed !== undefined && armed.limit !== limit) for (const attack of Object.values(app.store.exchange.attacks)) attack.waitingSince = now;
  if (limit === 0) return;
  let next = Infinity;
  for (const attack of timed(app)) next = Math.min(next, attack.waitingSince! + limit);
  if (next === Infinity) return;
  // Never longer than the limit itself: a time ahead of the clock (a clock set back) waits no more than that.
  const wait = Math.max(0, Math.min(next - now, limit));
  timers.set(app, { limit, id: runIn(guarded('an attack\'s answer time limit', () => runOut(app)), wait) });
}

/** The limit in ms; 0: none (off, or the script paused by a newer state). */
function limitMs(app: App): number {
  return app.newerState === undefined ? app.store.settings.answerTimeout * 1000 : 0;
}

/** The open attacks the limit may still resolve: timed, of the active edition, not being resolved, not tried. */
function timed(app: App): OpenAttack[] {
  return Object.values(app.store.exchange.attacks).filter((attack) => attack.waitingSince !== undefined && !tried.has(attack) && openAttack(app, attack.key) === attack && !isResolving(app, attack));
}

/** The timer: every attack past its deadline resolves (each on its own, a failure told to the GM), then the next deadline is armed. */
function runOut(app: App): void {
  const limit = limitMs(app);
  const now = clockNow();
  for (const attack of limit === 0 ? [] : timed(app)) {
    if (attack.waitingSince! + limit > now) continue;
    tried.add(attack);
    const late = unanswered(app, attack);
    guarded(`attack ${attack.key}'s answer time limit`, () => resolveAttack(limitContext(app, attack), attack, undefined, undefined, late), () => 'gm')();
  }
  armAnswerTimeouts(app);
}

/** The limit acts as the GM's Resolve now would: as a GM, its replies to the GM, recorded as the declarer's attack. */
function limitContext(app: App, attack: OpenAttack): CommandContext {
  const content = `!attack --resolve ${attack.key}`;
  const msg: Roll20ChatMessage = { type: 'api', who: 'DefenseRound', playerid: '', content };
  return { app, msg, parsed: parseLine(content), playerId: '', gm: true, senderName: 'the GM', replyTo: 'gm', relayed: false, help: () => '!attack --help' };
}
