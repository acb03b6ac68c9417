// `!attack N [the active edition's !damage flags] --ids DEFENDER ... [--from ATTACKER | --unseen]`:
// an attack declared (commands.md, "!attack"): its hit checked as `!damage` would check it, its
// attacker (or the GM's --unseen) and defenders found, a double click refused, kept in `state`,
// announced, and its prompts sent.
import { flagValue, hasFlag, idsArg, RefusalError, UsageError } from '../../text/args';
import { readInteger } from '../../rules/values';
import { isSoundAttack, MAX_DEFENDERS, MAX_OPEN_ATTACKS, type OpenAttack } from '../../state/attacks';
import { characterOf, findToken, tokenName } from '../../roll20/read';
import { controls } from '../../roll20/players';
import { hiddenFromPlayers, originalOf } from '../../roll20/visible';
import { PUBLIC, send } from '../../roll20/send';
import { renderLine } from '../../render/card';
import { refuse, type CommandContext } from '../context';
import { activeEdition, describeTokenRefusal, planContext, readContext, readTarget, unreadable } from '../pipeline';
import { isRefusal, type Order, type Plan } from '../../rules/edition';
import { readTurnOrder, textHash } from '../../roll20/turnorder';
import { onTable, resolveTargets } from '../targets';
import { nameList, tidyRefusals } from '../refusals';
import { attackerName, nextAttackKey, settlesItself } from './attacks';
import { attackOrderOf } from './line';
import { rememberOrder } from './asked';
import { sendPrompts } from './prompt';
import { startAnswerTime } from './timeout';
import { pingDefenders } from './nudge';
import { resolveAttack } from './resolve';

/** A second declaration of the same attack this soon after the first is a double click (ms). */
const DOUBLE_CLICK_MS = 5000;
/** A player's own open attacks at most (the GM's room is never filled by the players'). */
const PLAYER_OPEN_ATTACKS = 5;
/** The defenders of all the players' open attacks together: what players keep open stays a few KB of `state`. */
const PLAYERS_OPEN_DEFENDERS = 100;

export function declareAttack(ctx: CommandContext): void | Promise<void> {
  const app = ctx.app;
  const edition = activeEdition(app);
  const spec = edition.check.answers;
  // The hit is `!damage`'s, checked (and refused) the same way; the situation is the attack's.
  const order = attackOrderOf(ctx.parsed, edition);
  if (idsArg(ctx.parsed) === undefined) throw new UsageError('no defenders given: --ids with their token ids');
  const plan = edition.hit.plan(order, planContext(app, ctx.gm));
  const situation = spec.situation(order);
  const decides = Object.keys(edition.hit.flags).find((flag) => edition.hit.flags[flag]!.decides !== undefined && ctx.parsed.flags.has(flag));
  if (decides !== undefined && !ctx.gm) throw new RefusalError(`--${decides} is the defender's answer in an attack: each defender answers its prompt`);
  const attacker = attackerOf(ctx);
  const open = Object.values(app.store.exchange.attacks);
  if (open.length >= MAX_OPEN_ATTACKS) throw new RefusalError(`${open.length} attacks are open already: resolve or cancel one first (!attack --list)`);
  // The players' attacks never fill the GM's room: each player keeps a few open, all of them together half.
  if (!ctx.gm) {
    const players = open.filter((attack) => !attack.gm);
    if (players.filter((attack) => attack.by === ctx.playerId).length >= PLAYER_OPEN_ATTACKS || players.length >= MAX_OPEN_ATTACKS / 2) {
      throw new RefusalError('you have enough attacks open: resolve or cancel one first (!attack --list)');
    }
  }
  // Defenders: tokens the sender can see (a player naming one on the GM layer is told it does not exist).
  const found = resolveTargets(ctx, idsArg(ctx.parsed), { anyTarget: true });
  const notes = [...found.notes];
  const defenders = found.targets.filter(({ token }) => {
    if (attacker !== null && token.id === attacker) {
      notes.push(`${tokenName(token, 'a token')}: the attacker does not defend against itself`);
      return false;
    }
    return true;
  });
  if (defenders.length === 0) throw new RefusalError(`no defender left (${notes.join('; ')})`);
  if (defenders.length > MAX_DEFENDERS) throw new RefusalError(`one attack has at most ${MAX_DEFENDERS} defenders (got ${defenders.length})`);
  const defenderIds = defenders.map(({ token }) => token.id);
  const misdeclared = spec.refuseDeclared?.(order, defenderIds);
  if (misdeclared) throw new RefusalError(misdeclared);
  // rules.md, "The exchange": the attacker's own rules (out of turn, only a counter attack), read before the attack is kept.
  if (attacker !== null && spec.declarer) attackerMay(app, ctx, attacker, spec.declarer(order, defenderIds));
  if (!ctx.gm) {
    let held = 0;
    for (const attack of open) if (!attack.gm) held += attack.defenders.length;
    if (held + defenders.length > PLAYERS_OPEN_DEFENDERS) throw new RefusalError(`the players' open attacks may hold ${PLAYERS_OPEN_DEFENDERS} defenders together (${held} now): resolve or cancel one first (!attack --list)`);
  }
  // Public: who attacks whom, and from where; no numbers, and no token the players cannot see.
  const names = defenders.filter(({ token }) => !hiddenFromPlayers(token)).map(({ token }) => tokenName(token, 'a token'));
  const attack: OpenAttack = {
    key: '',
    by: ctx.playerId,
    gm: ctx.gm,
    attacker,
    edition: edition.id,
    // Numbers kept by value, as they were read (a 100,000-character "000...05" is kept as 5).
    positionals: ctx.parsed.positionals.map(byValue),
    flags: [...ctx.parsed.flags].filter(([name]) => name !== 'ids' && name !== 'from' && name !== 'help' && name !== 'unseen').map(([name, values]) => [name, values.map(byValue)] as [string, string[]]),
    situation,
    round: app.store.round.number,
    defenders: defenderIds,
    answers: {},
  };
  // What is kept is what a restart reads back: an attack its check would drop is refused now, not forgotten later.
  attack.key = 'A1';
  if (!isSoundAttack(attack)) throw new RefusalError('this attack cannot be kept: a value in it is too long or too many (at most 200 characters a value)');
  const line = lineSaid(ctx, attacker, defenderIds);
  const last = (app.lastAttacks ??= new Map()).get(ctx.playerId);
  const now = Date.now();
  // A double click on the macro: the same attack again within a few seconds (Roll20's clock) is not opened twice.
  if (last && last.line === line && now - last.at < DOUBLE_CLICK_MS && now >= last.at) throw new RefusalError(`this attack was already declared as ${last.key} a moment ago (a double click?): nothing declared; to attack twice, send it again in a few seconds`);
  attack.key = nextAttackKey(app, names.length === 0);
  app.lastAttacks.set(ctx.playerId, { line, key: attack.key, at: now });
  app.store.exchange.attacks[attack.key] = attack;
  rememberOrder(attack, order);
  const where = situation ? ` (${spec.situationWords(situation).split(':')[0]})` : '';
  if (names.length > 0) send(PUBLIC, renderLine(`Attack ${attack.key}: ${attackerName(attack, false)} attacks ${nameList(names)}${where}.`), { record: true });
  if (notes.length > 0) refuse(ctx, `Not among the defenders: ${tidyRefusals(notes).join('; ')}`);
  // The hit as each defender meets it, for whether it can touch them at all (rules.md, "The exchange").
  const hits = new Map<Order, Plan<unknown>>([[order, plan]]);
  sendPrompts(app, attack, (defenderOrder) => {
    if (!hits.has(defenderOrder)) hits.set(defenderOrder, edition.hit.plan(defenderOrder, planContext(app, ctx.gm)));
    return hits.get(defenderOrder);
  });
  pingDefenders(app, attack);
  startAnswerTime(app, attack);
  if (settlesItself(app, attack)) return resolveAttack(ctx, attack, plan);
}

/** Refuses the attack when the attacker's own rules forbid it now (its plan refuses): the reason, in one line. */
function attackerMay(app: CommandContext['app'], ctx: CommandContext, attacker: string, plan: Plan<unknown> | undefined): void {
  const token = plan ? findToken(attacker) : undefined;
  if (!plan || !token) return;
  const reading = readTarget(app, { token, character: characterOf(token) }, plan, readContext(app, plan.readsTurnOrder ? readTurnOrder() : undefined));
  const unread = unreadable(app, reading, true, '; no attack declared');
  if (unread !== undefined) throw new RefusalError(unread);
  const resolution = plan.resolve(reading.facts, {});
  if (isRefusal(resolution)) throw new RefusalError(describeTokenRefusal(app, reading.snapshot, resolution, ctx.gm || controls(ctx.playerId, token, characterOf(token))));
}

/** The attack as its declarer typed it, for a double click: the line (inline rolls as written), its attacker and defenders. */
function lineSaid(ctx: CommandContext, attacker: string | null, defenders: readonly string[]): string {
  const rolls = (ctx.msg.inlinerolls ?? []).map((roll) => roll.expression).join('|');
  // Hashed: a long line is not kept in memory.
  return textHash(`${attacker ?? ''} ${defenders.join(',')} ${ctx.msg.content} ${rolls}`);
}

/** The attacker: `--from`, or the one token selected; none only when the GM says so (`--unseen`: an unseen archer). */
function attackerOf(ctx: CommandContext): string | null {
  if (hasFlag(ctx.parsed, 'unseen')) {
    if (!ctx.gm) throw new RefusalError('--unseen is the GM\'s: select your attacking token, or give --from with its id');
    if (ctx.parsed.flags.has('from')) throw new UsageError('--unseen declares no attacker: leave out --from');
    return null;
  }
  const from = flagValue(ctx.parsed, 'from');
  const selected = (ctx.msg.selected ?? []).filter((entry) => entry._type === 'graphic');
  let token: Roll20Graphic | undefined;
  if (from !== undefined) {
    token = onTable(from, ctx.gm);
    if (!token) throw new RefusalError('--from: no token on the table has that id');
  } else if (selected.length === 1) {
    token = onTable(selected[0]!._id, ctx.gm);
  } else if (selected.length > 1) {
    throw new UsageError('select one attacking token (or give --from ATTACKER)');
  }
  if (!token) throw new UsageError(ctx.gm ? 'no attacker: select the attacking token, give --from with its id, or --unseen for none' : 'select your attacking token, or give --from with its id');
  // A Bump stand-in attacks as the token it stands for.
  token = originalOf(token);
  if (!ctx.gm && !controls(ctx.playerId, token, characterOf(token))) throw new RefusalError(`you do not control ${tokenName(token, 'that token')}: declare from a token of yours`);
  return token.id;
}

/** A value of the declared line as kept: a whole number by its value, anything else as typed. */
function byValue(text: string): string {
  const value = readInteger(text);
  return value === null ? text : String(value);
}

