// `!attack N [the active edition's !damage flags] --ids DEFENDER ... [--from ATTACKER]`: one
// exchange from declaration to applied damage (commands.md, "!attack"). Declared here, answered
// with `!defend --answer` (commands/answer.ts), resolved here through the one pipeline: each
// defender's answer is filed as `!defend` would have filed it, then the hit is `!damage`'s.
import { flagValue, hasFlag, idsArg, RefusalError, UsageError, type ParsedLine } from '../text/args';
import { flagElsewhere } from '../rules/editions';
import { flagsOf, orderOf } from './orders';
import type { TypedFlagTable } from '../text/flags';
import type { AnyEdition } from '../rules/edition';
import { isSoundAttack, MAX_DEFENDERS, MAX_OPEN_ATTACKS, type KeptAnswerRecord, type OpenAttack } from '../state/attacks';
import { readInteger } from '../rules/values';
import { characterOf, findToken, tokenName } from '../roll20/read';
import { originalOf } from '../roll20/visible';
import { controls } from '../roll20/players';
import { hiddenFromPlayers } from '../roll20/visible';
import { PUBLIC, send, TO_GM, whisperTo } from '../roll20/send';
import { renderCard, renderLine } from '../render/card';
import type { CommandHandler } from './dispatch';
import { refuse, reply, type App, type CommandContext } from './context';
import { activeEdition, givenDice, planContext, runPlans, type PlannedTarget } from './pipeline';
import { controlsToken, onTable, resolveTargets, type Target } from './targets';
import { attackerName, attackSeenBy, beginResolving, claimAttack, nextAttackKey, openAttack, settlesItself, unanswered, waitingNames, waitsForGm } from './exchange';
import { gmCard, sendPrompts } from './attackPrompts';
import { nameList, tidyRefusals } from './refusals';
import { cutWhole } from '../text/cut';

/** A player's own open attacks at most (the GM's room is never filled by the players'). */
const PLAYER_OPEN_ATTACKS = 5;
/** The defenders of all the players' open attacks together: what players keep open stays a few KB of `state`. */
const PLAYERS_OPEN_DEFENDERS = 100;

/** Flags of `!attack` in every edition, beside the edition's `!damage` flags. */
const COMMON_FLAGS: TypedFlagTable = {
  ids: { kind: 'list' },
  from: { kind: 'token' },
  help: { kind: 'switch' },
  resolve: { kind: 'word' },
  cancel: { kind: 'word' },
  list: { kind: 'switch' },
};
/** The hit's own flags, for the line each defender's hit is planned from. */
const HIT_ONLY: TypedFlagTable = {};

/** The attack's usage in the active edition: its `!damage` line, the defenders and the attacker. */
function usageOf(app: App): string {
  const edition = activeEdition(app);
  const damage = edition.hit.usage.split(' [--ids')[0]!.replace(/^!damage/, '!attack');
  const extra = Object.keys(edition.check.answers.flags).map((flag) => ` [--${flag} ...]`).join('');
  return `${damage}${extra} --ids DEFENDER ... [--from ATTACKER]; !attack --resolve KEY | --cancel KEY | --list`;
}

export const attackCommand: CommandHandler = {
  usage: usageOf,
  help: () => [
    'Declares one attack on the defenders (--ids): each defender\'s controller (the GM for NPCs) gets a prompt with a button for every answer the rules allow now; the hit is applied once every defender has answered, or when the GM (or the declarer) resolves it.',
    'The attacker is --from, or the one token selected. Inline rolls are rolled once, for every defender. !damage --undo takes the whole attack back.',
  ],
  run(ctx) {
    if (hasFlag(ctx.parsed, 'list')) return listAttacks(ctx);
    const resolveKey = flagValue(ctx.parsed, 'resolve');
    if (resolveKey !== undefined) return resolveCommand(ctx, resolveKey);
    const cancelKey = flagValue(ctx.parsed, 'cancel');
    if (cancelKey !== undefined) return cancelAttack(ctx, cancelKey);
    return declare(ctx);
  },
};

/** The declared line without `!attack`'s own flags: what `!damage` would have been sent. */
function damageLineOf(line: ParsedLine, edition: AnyEdition, extra: Record<string, string> = {}): ParsedLine {
  const flags = new Map<string, string[]>();
  for (const [name, values] of line.flags) {
    if (Object.prototype.hasOwnProperty.call(COMMON_FLAGS, name) || Object.prototype.hasOwnProperty.call(edition.check.answers.flags, name)) continue;
    flags.set(name, values);
  }
  for (const [name, value] of Object.entries(extra)) flags.set(name, [value]);
  return { command: '!damage', positionals: line.positionals, flags };
}

/** The attack's line as it was declared, from `state`. */
function lineOf(attack: OpenAttack): ParsedLine {
  return { command: '!attack', positionals: [...attack.positionals], flags: new Map(attack.flags.map(([name, values]) => [name, [...values]])) };
}

function declare(ctx: CommandContext): void | Promise<void> {
  const app = ctx.app;
  const edition = activeEdition(app);
  const spec = edition.check.answers;
  // The hit is `!damage`'s, checked (and refused) the same way; the situation is the attack's.
  const order = orderOf(ctx.parsed, flagsOf(edition, '!attack', COMMON_FLAGS, edition.hit.flags, spec.flags), edition.hit.amount, flagElsewhere(edition.id, '!damage'));
  if (idsArg(ctx.parsed) === undefined) throw new UsageError('no defenders given: --ids with their token ids');
  edition.hit.plan(order, planContext(app, ctx.gm));
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
    flags: [...ctx.parsed.flags].filter(([name]) => name !== 'ids' && name !== 'from' && name !== 'help').map(([name, values]) => [name, values.map(byValue)] as [string, string[]]),
    situation,
    round: app.store.round.number,
    defenders: defenders.map(({ token }) => token.id),
    answers: {},
  };
  // What is kept is what a restart reads back: an attack its check would drop is refused now, not forgotten later.
  attack.key = 'A1';
  if (!isSoundAttack(attack)) throw new RefusalError('this attack cannot be kept: a value in it is too long or too many (at most 200 characters a value)');
  attack.key = nextAttackKey(app, names.length === 0);
  app.store.exchange.attacks[attack.key] = attack;
  const where = situation ? ` (${spec.situationWords(situation).split(':')[0]})` : '';
  if (names.length > 0) send(PUBLIC, renderLine(`Attack ${attack.key}: ${attackerName(attack, false)} attacks ${nameList(names)}${where}.`), { record: true });
  if (notes.length > 0) refuse(ctx, `Not among the defenders: ${tidyRefusals(notes).join('; ')}`);
  sendPrompts(app, attack);
  if (settlesItself(app, attack)) return resolveAttack(ctx, attack);
}

/** The attacker: `--from`, or the one token selected; the GM may declare with none (an unseen archer). */
function attackerOf(ctx: CommandContext): string | null {
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
  if (!token) {
    if (ctx.gm) return null;
    throw new UsageError('select your attacking token, or give --from with its id');
  }
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

/** The open attack a key names, for this sender: one a player may not know of answers as an unused key does. */
function attackOf(ctx: CommandContext, key: string): OpenAttack {
  const found = openAttack(ctx.app, key);
  const attack = found && attackSeenBy(found, ctx.playerId, ctx.gm) ? found : undefined;
  if (!attack) throw new RefusalError(`no open attack ${cutWhole(key, 12)} (resolved, cancelled, or never declared): !attack --list shows the open ones`);
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

/**
 * Resolves an attack through the pipeline: each answered defender's defense is filed as `!defend`
 * would have filed it, then each takes the hit `!damage` would have made (with the flags its
 * answer gives); unanswered ones take no defense (or, in an edition with defense modes, their own).
 */
export function resolveAttack(ctx: CommandContext, attack: OpenAttack): void | Promise<void> {
  const app = ctx.app;
  const edition = activeEdition(app);
  // Open until its hit is applied: an edition switch while its roll is out cancels it by name.
  if (!beginResolving(app, attack)) throw new RefusalError(`attack ${attack.key} is being resolved already`);
  const declared = lineOf(attack);
  const context = planContext(app, attack.gm);
  const items: Array<PlannedTarget<unknown>> = [];
  const gone: string[] = [];
  for (const tokenId of attack.defenders) {
    const token = findToken(tokenId);
    if (!token) {
      gone.push(tokenId);
      continue;
    }
    const target: Target = { token, character: characterOf(token) };
    const kept = attack.answers[tokenId];
    const line = damageLineOf(declared, edition, kept?.flags);
    const plan = edition.hit.plan(orderOf(line, flagsOf(edition, '!attack-hit', HIT_ONLY, edition.hit.flags), edition.hit.amount), context);
    const item: PlannedTarget<unknown> = { target, plan, given: givenDice(line, plan.dice) };
    // An answer given is this attack's, whatever `!defend` came later; it is read by the hit, never filed, so undo has none to bring back.
    if (kept) {
      item.answer = answerWords(kept);
      item.answerGiven = { answer: kept.file ?? null };
    }
    items.push(item);
  }
  // A player's answer may settle it: what went wrong on the GM's tokens is the GM's to hear.
  const settler: CommandContext = ctx.gm ? ctx : { ...ctx, replyTo: 'gm' };
  if (!ctx.gm) delete settler.replyFor;
  const done = (): void => {
    app.resolving?.delete(attack);
  };
  let running: void | Promise<void>;
  try {
    running = runPlans(settler, items, gone.length > 0 ? [`${gone.length} defender${gone.length === 1 ? ' is' : 's are'} no longer on the table`] : [], {
    title: `Attack ${attack.key}`,
    anyTarget: true,
    record: true,
    recordBy: attack.by,
    claim: () => claimAttack(app, attack),
    refusals: (refused, anyApplied) => `Attack ${attack.key}: ${anyApplied ? 'not applied to every defender' : 'not applied'}: ${refused.join('; ')}.`,
    });
  } catch (error) {
    done();
    throw error;
  }
  // A roll that never came back leaves the attack open to resolve again.
  return running === undefined ? undefined : running.then(done, (error: unknown) => {
    done();
    throw error;
  });
}

/** How a defender answered, for its row: the answer, and its check's roll and result where one was made. */
function answerWords(kept: KeptAnswerRecord): string {
  const word = `${kept.word.charAt(0).toUpperCase()}${kept.word.slice(1)}`;
  if (kept.word === 'none') return 'No defense';
  if (kept.roll === undefined) return `${word}: no check was made`;
  const typed = kept.typed ? ' (typed)' : '';
  return kept.success === undefined ? `${word}, roll ${kept.roll}${typed}` : `${word} ${kept.roll}${typed}: ${kept.success ? 'success' : 'failure'}`;
}

function cancelAttack(ctx: CommandContext, key: string): void {
  const attack = attackOf(ctx, key.toUpperCase());
  if (!ctx.gm && ctx.playerId !== attack.by) throw new RefusalError(`attack ${attack.key} is its declarer's or the GM's to cancel`);
  delete ctx.app.store.exchange.attacks[attack.key];
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
    for (const attack of attacks) send(TO_GM, renderCard(gmCard(app, edition, attack, [])));
    return;
  }
  const lines = attacks.map((attack) => {
    const waiting = waitingNames(app, attack, ctx.playerId, false);
    // Nobody she sees is left to answer: the attack waits for the GM (to settle it, or for tokens she does not see).
    return `${attack.key}: ${attackerName(attack, false)} attacks; waiting for ${waiting.length > 0 ? nameList(waiting) : 'the GM'}`;
  });
  send(whisperTo(ctx.replyTo), renderCard({ title: 'Open attacks', rows: [{ label: 'Attacks', lines }] }));
}

/** Round's end (commands.md): the GM is reminded of the attacks still open, with Resolve and Cancel; they do not resolve by themselves. */
export function remindOpenAttacks(app: App): void {
  const edition = activeEdition(app);
  for (const attack of Object.values(app.store.exchange.attacks)) send(TO_GM, renderCard(gmCard(app, edition, attack, [])), { record: true });
}

