// Attacks an edition switch cancels (commands.md, "!attack"): the players they concern are told,
// and a late click on one of their buttons is refused as cancelled, not as an unknown flag.
import { characterOf, findToken } from '../../roll20/read';
import { controllersOf, whisperTarget } from '../../roll20/players';
import { send, whisperTo } from '../../roll20/send';
import { renderLine } from '../../render/card';
import type { App } from '../context';
import { attackSeenBy } from './attacks';

/**
 * Cancels every open attack: each player it prompted or who declared it is whispered one line
 * naming its key (no attacker, no token: nothing she might not see). The keys, and whether any
 * player was told.
 */
export function cancelOpenAttacks(app: App): { keys: string[]; told: boolean } {
  const attacks = Object.values(app.store.exchange.attacks);
  app.store.exchange.attacks = {};
  app.cancelled = new Map(attacks.map((attack) => [attack.key, attack]));
  const byPlayer = new Map<string, string[]>();
  for (const attack of attacks) {
    const players = new Set(attack.gm ? [] : [attack.by]);
    for (const tokenId of attack.defenders) {
      const token = findToken(tokenId);
      if (token) for (const player of controllersOf(token, characterOf(token))) players.add(player);
    }
    for (const player of players) byPlayer.set(player, [...(byPlayer.get(player) ?? []), attack.key]);
  }
  let told = false;
  for (const [player, keys] of byPlayer) {
    const to = whisperTarget(player);
    // The GM hears it in the switch's answer.
    if (to === 'gm') continue;
    const one = keys.length === 1;
    send(whisperTo(to), renderLine(`Attack${one ? '' : 's'} ${keys.join(', ')} ${one ? 'is' : 'are'} cancelled: the GM switched editions. Nothing was written; ${one ? 'its' : 'their'} buttons answer nothing now.`), { record: true });
    told = true;
  }
  return { keys: attacks.map((attack) => attack.key), told };
}

/** Why a key names no open attack when the last edition switch cancelled it and this reader knew of it; undefined otherwise. */
export function cancelledBySwitch(app: App, key: string, playerId: string, gm: boolean): string | undefined {
  const cancelled = app.cancelled?.get(key);
  return cancelled && attackSeenBy(cancelled, playerId, gm) ? `attack ${key} was cancelled when the GM switched editions: nothing to answer or resolve` : undefined;
}
