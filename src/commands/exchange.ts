// The exchange (architecture.md, "The pipeline owns the exchange"): a defense made ahead with
// `!defend` is an answer waiting for its hit, kept in `state.exchange.waiting` by token; the next
// `!damage` on the token takes the answer on file (the edition reads it as `Facts.answer` and says
// whether it is used up). Answers end with their round, and with the edition they were made in.
import type { Memory } from '../state/memory';
import type { OpenAttack } from '../state/attacks';
import { findToken, tokenName } from '../roll20/read';
import type { App } from './context';
import { controlsToken } from './targets';

/** rules.md, "Rounds": every defense made ahead ends with the round. */
export function endRoundAnswers(app: App): void {
  app.store.exchange.waiting = {};
}

/** An edition switch: the answers made in another edition answer nothing in this one. */
export function keepAnswersOf(app: App, edition: string): void {
  const waiting = app.store.exchange.waiting;
  for (const id of Object.keys(waiting)) if (waiting[id]!.edition !== edition) delete waiting[id];
}

/** Undo's "changed since" for a token's answer on file, in words said after its name; undefined: unchanged. */
export function describeAnswerChange(left: Memory, now: Memory, same: (a: unknown, b: unknown) => boolean): string | undefined {
  if (same(left.answer, now.answer)) return undefined;
  return now.answer !== undefined ? 'has a new pending defense' : 'no longer has the pending defense it had';
}

// ---- open attacks (commands.md, "!attack") ----

/** The defender made its defense ahead (`!defend` before the attack, a guard): that answers the attack. */
/** The open attack under this key (a key typed by anyone: never one of the object's own properties). */
export function openAttack(app: App, key: string): OpenAttack | undefined {
  const attacks = app.store.exchange.attacks;
  return Object.prototype.hasOwnProperty.call(attacks, key) ? attacks[key] : undefined;
}

export function answeredAhead(app: App, tokenId: string): boolean {
  return app.store.exchange.waiting[tokenId]?.edition === app.store.settings.edition;
}

/** The defenders still to answer (neither answered nor defended ahead), in the attack's order. */
export function unanswered(app: App, attack: OpenAttack): string[] {
  return attack.defenders.filter((tokenId) => attack.answers[tokenId] === undefined && !answeredAhead(app, tokenId));
}

/** The attacker as this reader may know it: a player is not told of one on the GM layer (null: none known). */
export function attackerSeen(attack: OpenAttack, gm: boolean): string | null {
  if (attack.attacker === null || gm) return attack.attacker;
  return findToken(attack.attacker)?.get('layer') === 'gmlayer' ? null : attack.attacker;
}

/** The attacker's name as a card says it; to a player, a hidden attacker is unseen. */
export function attackerName(attack: OpenAttack, gm = true): string {
  const seen = attackerSeen(attack, gm);
  if (seen === null) return 'An unseen attacker';
  const token = findToken(seen);
  return token ? tokenName(token, 'The attacker') : 'The attacker (gone)';
}

/** A new attack's short key: A1, A2 ... (after A999999, A1 again: none of them is open for long). */
export function nextAttackKey(app: App): string {
  const exchange = app.store.exchange;
  exchange.lastAttack = exchange.lastAttack >= 999_999 ? 1 : exchange.lastAttack + 1;
  return `A${exchange.lastAttack}`;
}

/** An edition switch cancels every open attack (commands.md); the keys of those it cancelled. */
export function cancelOpenAttacks(app: App): string[] {
  const keys = Object.keys(app.store.exchange.attacks);
  app.store.exchange.attacks = {};
  return keys;
}

/** The names of the defenders still to answer, as this reader may see them: a player is not told of a token on the GM layer. */
export function waitingNames(app: App, attack: OpenAttack, gm: boolean): string[] {
  const names: string[] = [];
  let unseen = 0;
  for (const tokenId of unanswered(app, attack)) {
    const token = findToken(tokenId);
    if (!token) continue;
    if (!gm && token.get('layer') === 'gmlayer') unseen += 1;
    else names.push(tokenName(token, 'a token'));
  }
  if (unseen > 0) names.push(names.length > 0 ? 'others' : 'the GM');
  return names;
}

/**
 * Whether an attack whose every defender has answered settles by itself now: the GM's attack does;
 * a player's only where nothing is left for the GM to settle (commands.md, "!attack": her attack on
 * a token she does not control is the GM's to settle, unless players-target-any is on). A defense
 * made ahead answers a token, but the GM has not yet settled it for her.
 */
export function settlesItself(app: App, attack: OpenAttack): boolean {
  if (unanswered(app, attack).length > 0) return false;
  if (attack.gm || app.store.settings.playersTargetAny) return true;
  return attack.defenders.every((tokenId) => controlsToken(attack.by, tokenId) || attack.answers[tokenId] !== undefined);
}
