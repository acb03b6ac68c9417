// `!attack`: one exchange from declaration to applied damage (commands.md, "!attack"), owned here:
// declared (declare.ts), prompted (prompt.ts), answered with `!defend --answer` (answer.ts) and
// resolved through the one pipeline (resolve.ts); listed, cancelled and reminded of here.
import { flagValue, hasFlag, RefusalError } from '../../text/args';
import type { OpenAttack } from '../../state/attacks';
import { findToken, tokenName } from '../../roll20/read';
import { PUBLIC, send, TO_GM, whisperTo } from '../../roll20/send';
import { renderCard, renderLine } from '../../render/card';
import { cutWhole } from '../../text/cut';
import { flagHelp, usageOf } from '../../text/flags';
import type { CommandHandler } from '../dispatch';
import { reply, type App, type CommandContext } from '../context';
import { activeEdition } from '../pipeline';
import { controlsToken } from '../targets';
import { nameList } from '../refusals';
import { attackerName, attackSeenBy, openAttack, unanswered, waitingNames, waitsForGm } from './attacks';
import { cancelledBySwitch } from './cancelled';
import { declareAttack } from './declare';
import { gmCard, waitingRows } from './prompt';
import { resolveAttack } from './resolve';

export { answerAttack } from './answer';
export { cancelOpenAttacks } from './cancelled';
export { endRoundAnswers, keepAnswersOf } from './waiting';

/** The attack's usage in the active edition: its `!damage` line, the defenders and the attacker. */
function attackUsage(app: App): string {
  const edition = activeEdition(app);
  const damage = edition.hit.usage.split(' [--ids')[0]!.replace(/^!damage/, '!attack');
  const own = usageOf(edition.check.answers.flags);
  return `${damage}${own === '' ? '' : ` ${own}`} --ids DEFENDER ... [--from ATTACKER | --unseen]; !attack --resolve KEY | --cancel KEY | --list`;
}

export const attackCommand: CommandHandler = {
  usage: attackUsage,
  // What an attack declares beyond its `!damage` flags (its situation, an area's edge ...), and what an answer may carry.
  flags: (app) => {
    const { answers } = activeEdition(app).check;
    return [...flagHelp(answers.flags), ...flagHelp(answers.answerFlags).map((line) => `!defend --answer: ${line}`)];
  },
  help: () => [
    'Declares one attack on the defenders (--ids): each defender\'s controller (the GM for NPCs) gets a prompt with a button for every answer the rules allow now; the hit is applied once every defender has answered, or when the GM (or the declarer) resolves it.',
    'The attacker is --from, or the one token selected; with neither it is refused, unless the GM says --unseen (no attacker). The same attack sent again within 5 seconds is refused (a double click). Inline rolls are rolled once, for every defender. !damage --undo takes the whole attack back.',
    'The GM\'s card has every defender\'s buttons (the GM answers for anyone); !attack --list has them for those still to answer.',
  ],
  run(ctx) {
    if (hasFlag(ctx.parsed, 'list')) return listAttacks(ctx);
    const resolveKey = flagValue(ctx.parsed, 'resolve');
    if (resolveKey !== undefined) return resolveCommand(ctx, resolveKey);
    const cancelKey = flagValue(ctx.parsed, 'cancel');
    if (cancelKey !== undefined) return cancelAttack(ctx, cancelKey);
    return declareAttack(ctx);
  },
};

/** The open attack a key names, for this sender: one a player may not know of answers as an unused key does. */
function attackOf(ctx: CommandContext, key: string): OpenAttack {
  const found = openAttack(ctx.app, key);
  const attack = found && attackSeenBy(found, ctx.playerId, ctx.gm) ? found : undefined;
  if (!attack) throw new RefusalError(cancelledBySwitch(ctx.app, key, ctx.playerId, ctx.gm) ?? `no open attack ${cutWhole(key, 12)} (resolved, cancelled, or never declared): !attack --list shows the open ones`);
  return attack;
}

function resolveCommand(ctx: CommandContext, key: string): void | Promise<void> {
  const attack = attackOf(ctx, key.toUpperCase());
  if (!ctx.gm && ctx.playerId !== attack.by) throw new RefusalError(`attack ${attack.key} is its declarer's or the GM's to resolve`);
  // A player's attack on a token she does not control is the GM's to settle (as !damage is), whoever else answered.
  if (!ctx.gm) {
    const theirs = waitsForGm(ctx.app, attack);
    if (theirs.length > 0) {
      const names = theirs.map((tokenId) => tokenName(findToken(tokenId)!, 'a token'));
      reply(ctx, `Attack ${attack.key} waits for the GM to settle ${nameList(names)} (the GM answers for tokens you do not control, or resolves it).`);
      return;
    }
  }
  return resolveAttack(ctx, attack);
}

function cancelAttack(ctx: CommandContext, key: string): void {
  const attack = attackOf(ctx, key.toUpperCase());
  if (!ctx.gm && ctx.playerId !== attack.by) throw new RefusalError(`attack ${attack.key} is its declarer's or the GM's to cancel`);
  delete ctx.app.store.exchange.attacks[attack.key];
  // Declared again after a cancel is meant, not a double click.
  for (const [who, last] of ctx.app.lastAttacks ?? []) if (last.key === attack.key) ctx.app.lastAttacks!.delete(who);
  send(PUBLIC, renderLine(`Attack ${attack.key} is cancelled: nothing was written.`), { record: true });
}

/** `--list`: the GM sees every open attack; a player those she declared and those waiting for her answer. */
function listAttacks(ctx: CommandContext): void {
  const app = ctx.app;
  const edition = activeEdition(app);
  const attacks = Object.values(app.store.exchange.attacks).filter(
    (attack) =>
      ctx.gm ||
      attack.by === ctx.playerId ||
      unanswered(app, attack).some((tokenId) => controlsToken(ctx.playerId, tokenId)),
  );
  if (attacks.length === 0) {
    reply(ctx, ctx.gm ? 'No attack is open.' : 'No open attack of yours, and none waiting for your answer.');
    return;
  }
  if (ctx.gm) {
    for (const attack of attacks) send(TO_GM, renderCard(gmCard(app, edition, attack)));
    return;
  }
  const lines = attacks.map((attack) => {
    const waiting = waitingNames(app, attack, ctx.playerId, false);
    // Nobody she sees is left to answer: the attack waits for the GM (to settle it, or for tokens she does not see).
    return `${attack.key}: ${attackerName(attack, false)} attacks; waiting for ${waiting.length > 0 ? nameList(waiting) : 'the GM'}`;
  });
  // Her tokens still to answer, each with its buttons (a prompt scrolled away).
  const rows = attacks.flatMap((attack) => waitingRows(app, edition, attack, ctx.playerId).map((row) => ({ ...row, label: `${attack.key}: ${row.label}` })));
  send(whisperTo(ctx.replyTo), renderCard({ title: 'Open attacks', rows: [{ label: 'Attacks', lines }, ...rows] }));
}

/** Round's end (commands.md): the GM is reminded of the attacks still open, with Resolve and Cancel; they do not resolve by themselves. */
export function remindOpenAttacks(app: App): void {
  const edition = activeEdition(app);
  for (const attack of Object.values(app.store.exchange.attacks)) send(TO_GM, renderCard(gmCard(app, edition, attack)), { record: true });
}

