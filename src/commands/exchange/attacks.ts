// Open attacks (commands.md, "!attack"), kept in `state.exchange.attacks` until their hit is
// written or they are cancelled: their keys, who may know of them, who is still to answer, and
// who settles them.
import type { OpenAttack } from '../../state/attacks';
import { characterOf, findToken, tokenName } from '../../roll20/read';
import { controls } from '../../roll20/players';
import { hiddenFromPlayers } from '../../roll20/visible';
import type { App } from '../context';
import { controlsToken } from '../targets';
import { answeredAhead } from './waiting';

/** The open attack under this key (a key typed by anyone: never one of the object's own properties). */
export function openAttack(app: App, key: string): OpenAttack | undefined {
  const attacks = app.store.exchange.attacks;
  const attack = Object.prototype.hasOwnProperty.call(attacks, key) ? attacks[key] : undefined;
  // An attack is answered and resolved by the rules it was declared in, and no other.
  return attack?.edition === app.store.settings.edition ? attack : undefined;
}

/** The defenders still to answer (neither answered nor defended ahead), in the attack's order. */
export function unanswered(app: App, attack: OpenAttack): string[] {
  return attack.defenders.filter((tokenId) => attack.answers[tokenId] === undefined && !answeredAhead(app, attack, tokenId));
}

/** The attacker as this reader may know it: a player is not told of one on the GM layer (null: none known). */
export function attackerSeen(attack: OpenAttack, gm: boolean): string | null {
  if (attack.attacker === null || gm) return attack.attacker;
  const token = findToken(attack.attacker);
  return token !== undefined && hiddenFromPlayers(token) ? null : attack.attacker;
}

/** The attacker's name as a card says it; to a player, a hidden attacker is unseen. */
export function attackerName(attack: OpenAttack, gm = true): string {
  const seen = attackerSeen(attack, gm);
  if (seen === null) return 'An unseen attacker';
  const token = findToken(seen);
  return token ? tokenName(token, 'The attacker') : 'The attacker (gone)';
}

/**
 * A new attack's short key: A1, A2 ... for an attack the players are told of; G1, G2 ... for one
 * among hidden tokens only, so the public numbers show no gap for it (after 999999, 1 again: none
 * of them is open for long).
 */
export function nextAttackKey(app: App, hidden: boolean): string {
  const exchange = app.store.exchange;
  if (hidden) {
    exchange.lastHiddenAttack = exchange.lastHiddenAttack >= 999_999 ? 1 : exchange.lastHiddenAttack + 1;
    return `G${exchange.lastHiddenAttack}`;
  }
  exchange.lastAttack = exchange.lastAttack >= 999_999 ? 1 : exchange.lastAttack + 1;
  return `A${exchange.lastAttack}`;
}

/** Whether this reader sees the token: the GM always; a player a token players see, or her own wherever it is. */
export function seesToken(token: Roll20Graphic, playerId: string, gm: boolean): boolean {
  return gm || !hiddenFromPlayers(token) || controls(playerId, token, characterOf(token));
}

/**
 * Whether a reader may know of this attack: the GM, its declarer, or a player who sees one of its
 * defenders (an attack is announced by whom it attacks). Any other key answers as an unused one: a
 * hidden attack is never confirmed to a player.
 */
export function attackSeenBy(attack: OpenAttack, playerId: string, gm: boolean): boolean {
  if (gm || attack.by === playerId) return true;
  for (const tokenId of attack.defenders) {
    const token = findToken(tokenId);
    if (token && seesToken(token, playerId, false)) return true;
  }
  return false;
}

/**
 * An attack's resolution begins: it stays open (and is named if an edition switch cancels it) until
 * its hit is applied. False when it is being resolved already (its roll is out).
 */
export function beginResolving(app: App, attack: OpenAttack): boolean {
  const resolving = (app.resolving ??= new Set());
  if (resolving.has(attack)) return false;
  resolving.add(attack);
  return true;
}

/** Whether an attack's resolution is under way (its roll is out): it takes no more answers. */
export function isResolving(app: App, attack: OpenAttack): boolean {
  return app.resolving?.has(attack) === true;
}

/**
 * Just before an attack's hit is written: the attack is taken out of the open ones, or, when it was
 * cancelled while its roll was out, the reason nothing is applied.
 */
export function claimAttack(app: App, attack: OpenAttack): string | undefined {
  app.resolving?.delete(attack);
  if (openAttack(app, attack.key) !== attack) return `Attack ${attack.key} was cancelled while its roll was out: nothing applied.`;
  delete app.store.exchange.attacks[attack.key];
  return undefined;
}

/**
 * The names of the defenders still to answer that this reader sees: a token on the GM layer is
 * left out for a player who does not control it, with no hint that it is there.
 */
export function waitingNames(app: App, attack: OpenAttack, playerId: string, gm: boolean): string[] {
  const names: string[] = [];
  for (const tokenId of unanswered(app, attack)) {
    const token = findToken(tokenId);
    if (token && seesToken(token, playerId, gm)) names.push(tokenName(token, 'a token'));
  }
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
  return waitsForGm(app, attack).length === 0;
}

/**
 * The defenders of a player's attack that only the GM settles (commands.md, "!attack", as `!damage`
 * is refused on them): tokens on the table she does not control that the GM has not answered for.
 * Another player's answer for her own token does not settle it; none under players-target-any.
 */
export function waitsForGm(app: App, attack: OpenAttack): string[] {
  if (attack.gm || app.store.settings.playersTargetAny) return [];
  return attack.defenders.filter((tokenId) => attack.answers[tokenId]?.gm !== true && findToken(tokenId) !== undefined && !controlsToken(attack.by, tokenId));
}
