// `!defend --answer KEY --ids DEFENDER --action|--mode WORD [--roll R]`: one defender's answer to
// an open attack (commands.md, "!attack"). Only its controllers or the GM; once; the check rolled
// as `!defend` would, in the attack's situation; nothing written to the table until the attack
// resolves. The last answer resolves it.
import { checkFlags, choiceArg, type ParsedLine, flagValue, idsArg, RefusalError, UsageError, type FlagTable } from '../../text/args';
import { isRefusal, type AnyEdition, type KeptAnswer, type Step } from '../../rules/edition';
import { wordsOf } from '../../rules/sharedSteps';
import type { KeptAnswerRecord, OpenAttack } from '../../state/attacks';
import { characterOf, findToken, tokenName } from '../../roll20/read';
import { controls, isNpc } from '../../roll20/players';
import { hiddenFromPlayers } from '../../roll20/visible';
import { visibilityOf } from '../present';
import { rollDice } from '../../roll20/dice';
import { readTurnOrder } from '../../roll20/turnorder';
import { reply, type CommandContext } from '../context';
import { activeEdition, describeTokenRefusal, givenDice, planContext, readContext, readTarget, rollsOf, tokenNameById, typedRolls, unreadable } from '../pipeline';
import { attackSeenBy, isResolving, openAttack, seesToken, settlesItself, unanswered, waitingNames } from './attacks';
import { answeredAhead } from './waiting';
import { cancelledBySwitch } from './cancelled';
import { aheadMisfit, askedOf } from './asked';
import { orderOf } from '../orders';
import { toFlagTable, type TypedFlagTable } from '../../text/flags';
import type { Order } from '../../rules/edition';
import { resolveAttack } from './resolve';
import { gmCard } from './prompt';
import { send, TO_GM } from '../../roll20/send';
import { renderCard } from '../../render/card';
import { checkIdFlags, idFlagsAsOriginals, onTable } from '../targets';
import { cutWhole } from '../../text/cut';

export async function answerAttack(ctx: CommandContext): Promise<void> {
  const app = ctx.app;
  const edition = activeEdition(app);
  const spec = edition.check.answers;
  const key = (flagValue(ctx.parsed, 'answer') ?? '').toUpperCase();
  // A button of an attack an edition switch cancelled is told so first: its flags may be another edition's.
  const cancelled = openAttack(app, key) ? undefined : cancelledBySwitch(app, key, ctx.playerId, ctx.gm);
  if (cancelled) throw new RefusalError(cancelled);
  const flags: FlagTable = { ...toFlagTable(spec.answerFlags), answer: { kind: 'one' }, ids: { kind: 'list' }, help: { kind: 'switch' }, [spec.rollFlag]: { kind: 'one' }, [spec.answerFlag]: { kind: 'one' } };
  checkFlags(ctx.parsed, flags);
  // An answer's flags that name a token (an aider): a Bump stand-in names its original; each must be a token the sender sees, as with `!defend`.
  const idFlags = Object.keys(spec.answerFlags).filter((flag) => spec.answerFlags[flag]!.kind === 'token');
  idFlagsAsOriginals(ctx, idFlags);
  checkIdFlags(ctx, idFlags);
  // A key a player may not know of answers as an unused one.
  const found = openAttack(app, key);
  const attack = found && attackSeenBy(found, ctx.playerId, ctx.gm) ? found : undefined;
  if (!attack) throw new RefusalError(`no open attack ${cutWhole(key, 12)} to answer (resolved, cancelled, or never declared)`);
  if (isResolving(app, attack)) throw new RefusalError(`attack ${attack.key} is being resolved: its roll is out, nothing answered`);
  const ids = idsArg(ctx.parsed) ?? (ctx.msg.selected ?? []).map((entry) => entry._id);
  if (ids.length !== 1) throw new UsageError('an answer is for one defender: --ids with its token id');
  const tokenId = ids[0]!;
  // A player naming a token on the GM layer she does not control hears what she would of any token
  // that is no defender; her own she answers for wherever it is (the GM layer hides it from others).
  const onMap = attack.defenders.includes(tokenId) ? onTable(tokenId, true) : undefined;
  const token = onMap && seesToken(onMap, ctx.playerId, ctx.gm) ? onMap : undefined;
  if (!token) throw new RefusalError(`that token is not a defender of attack ${attack.key}`);
  const character = characterOf(token);
  const name = tokenName(token, 'the defender');
  if (!ctx.gm && !controls(ctx.playerId, token, character)) throw new RefusalError(`only ${name}'s controller or the GM answers for it`);
  const first = attack.answers[tokenId];
  if (first) throw new RefusalError(`${name} has answered attack ${attack.key} already (${first.word})`);
  if (answeredAhead(app, attack, tokenId)) throw new RefusalError(`${name} answers attack ${attack.key} with the defense it made ahead`);
  const wordText = flagValue(ctx.parsed, spec.answerFlag);
  if (wordText === undefined) throw new UsageError(`no answer given: --${spec.answerFlag} ${spec.choices.join('|')}`);
  const word = choiceArg(wordText, `--${spec.answerFlag}`, spec.announced ? [...spec.choices, ...spec.announced] : spec.choices);
  let kept: KeptAnswerRecord = { word };
  let forOther: KeptAnswer['answersFor'];
  let said = word === 'none' ? 'no defense' : word;
  // The check as its answer's line says it, for the result's row when the answer resolves the attack.
  let checked: string | undefined;
  if (word !== 'none') {
    const asked = askedOf(edition, attack, tokenId);
    const plan = spec.planAnswer(word, asked, planContext(app, ctx.gm), answerOrderOf(ctx.parsed, spec.answerFlags));
    const given = givenDice(ctx.parsed, plan.dice);
    const toRoll = plan.dice.filter((die) => given[die.name] === undefined);
    const rolled = toRoll.length > 0 ? await rollDice(toRoll.map((die) => die.sides)) : [];
    // The attack may have resolved, or the token changed hands, while the roll was out.
    if (app.store.exchange.attacks[key] !== attack || isResolving(app, attack) || attack.answers[tokenId] !== undefined) throw new RefusalError(`attack ${attack.key} was settled while the roll was out: nothing answered`);
    const still = findToken(tokenId);
    if (!still || (!ctx.gm && !controls(ctx.playerId, still, characterOf(still)))) throw new RefusalError(`${name} is gone or no longer yours since the roll: nothing answered`);
    const rolls = rollsOf(plan.dice, given, rolled, 0);
    const reading = readTarget(app, { token, character }, plan, readContext(app, plan.readsTurnOrder ? readTurnOrder() : undefined));
    const unread = unreadable(app, reading, true, '; nothing answered');
    if (unread !== undefined) throw new RefusalError(unread);
    const resolution = plan.resolve(reading.facts, rolls);
    if (isRefusal(resolution)) throw new RefusalError(describeTokenRefusal(app, reading.snapshot, resolution));
    const answer = spec.keep(word, resolution, rolls);
    const typed = ctx.gm ? undefined : typedRolls(ctx, plan.dice);
    kept = recordOf(answer);
    if (answer.helper !== undefined) {
      // One help, one answer: an aider already helping an open answer against the same attacker helps no other.
      const busy = helping(app, answer.helper, attack.attacker);
      if (busy !== undefined) throw new RefusalError(`${tokenNameById(answer.helper)} already helps ${busy}: one reaction, one aid`);
      kept.helper = answer.helper;
    }
    if (typed) kept.typed = true;
    if (answer.answersFor !== undefined) forOther = answer.answersFor;
    // The answerer's line: the check as `!defend` words it.
    const say = wordsOf(edition, (id) => (id === tokenId ? name : tokenNameById(id)));
    const check = resolution.steps.filter((step: Step) => step.section === 'Check').map((step) => say(step));
    said = check.length > 0 ? check.join('; ') : word;
    if (check.length > 0) checked = `${said}${typed ? ' (typed)' : ''}`;
  }
  if (ctx.gm) kept.gm = true;
  // rules.md, "The exchange": this answer replaces the defense made ahead that did not fit the attack.
  if (aheadMisfit(app, edition, attack, tokenId) !== undefined) kept.replaces = true;
  // An answer for another defender too (a guard's for its ally): kept as that one's answer, in place of any it gave.
  const other = forOther === undefined ? undefined : answerFor(app, edition, attack, forOther, kept, ctx);
  attack.answers[tokenId] = kept;
  if (other !== undefined) {
    attack.answers[other.tokenId] = other.kept;
    said += `; ${tokenNameById(other.tokenId)}: ${other.kept.word}`;
  }
  const waiting = waitingNames(app, attack, ctx.playerId, ctx.gm);
  const settles = settlesItself(app, attack);
  // Only what this reader sees: with defenders left that she does not see, nothing is said of them.
  const next = waiting.length > 0 ? ` Waiting for ${waiting.join(', ')}.` : settles ? ` Attack ${attack.key} resolves.` : unanswered(app, attack).length === 0 ? ` Attack ${attack.key} waits for the GM to settle it.` : '';
  // The answer that resolves the attack is said by its result, where the answerer reads its row (the GM every row): no line of its own.
  if (!settles || !(ctx.gm || visibilityOf(app, { npc: isNpc(token, character), hidden: hiddenFromPlayers(token) }) === 'public')) reply(ctx, `${name}: ${said}.${next}`);
  if (settles) await resolveAttack(ctx, attack, undefined, checked === undefined ? undefined : { tokenId, words: checked });
  // Every defender has answered and the attack is the GM's to settle: the GM gets its card (Resolve now, Cancel).
  else if (!ctx.gm && unanswered(app, attack).length === 0) send(TO_GM, renderCard(gmCard(app, edition, attack)), { record: true });
}

/**
 * The answer kept for another defender (a guard's for its ally), marked as the answerer's was: one
 * the answerer sees, not answered by a defense it made ahead (that one stands), else refused whole.
 */
function answerFor(app: CommandContext['app'], edition: AnyEdition, attack: OpenAttack, given: NonNullable<KeptAnswer['answersFor']>, by: KeptAnswerRecord, ctx: CommandContext): { tokenId: string; kept: KeptAnswerRecord } {
  const tokenId = given.defender;
  const token = attack.defenders.includes(tokenId) ? findToken(tokenId) : undefined;
  if (!token || !seesToken(token, ctx.playerId, ctx.gm)) throw new RefusalError(`that token is not a defender of attack ${attack.key}: nothing answered`);
  if (answeredAhead(app, attack, tokenId)) throw new RefusalError(`${tokenName(token, 'the defender')} answers attack ${attack.key} with the defense it made ahead: nothing answered`);
  const kept = recordOf(given.kept);
  if (by.typed) kept.typed = true;
  if (by.gm) kept.gm = true;
  if (aheadMisfit(app, edition, attack, tokenId) !== undefined) kept.replaces = true;
  return { tokenId, kept };
}

/** What an open attack keeps of an answer: its word, the defense the hit reads, its check's roll and result. */
function recordOf(answer: KeptAnswer): KeptAnswerRecord {
  const kept: KeptAnswerRecord = { word: answer.word };
  if (answer.answer !== undefined) kept.answer = answer.answer;
  if (answer.roll !== undefined) kept.roll = answer.roll;
  if (answer.success !== undefined) kept.success = answer.success;
  return kept;
}

/** The answer's own flags (an aid), typed: only those the edition's answers take. */
function answerOrderOf(line: ParsedLine, table: TypedFlagTable): Order {
  const flags = new Map([...line.flags].filter(([name]) => Object.prototype.hasOwnProperty.call(table, name)));
  return orderOf({ command: line.command, positionals: [], flags }, table);
}

/** The answer an aider already helps, against this attacker, in an open attack ("Bob's answer to A2"); undefined: none. */
function helping(app: CommandContext['app'], helper: string, attacker: string | null): string | undefined {
  for (const open of Object.values(app.store.exchange.attacks)) {
    if (open.attacker !== attacker) continue;
    for (const [tokenId, kept] of Object.entries(open.answers)) if (kept.helper === helper) return `${tokenNameById(tokenId)}'s answer to ${open.key}`;
  }
  return undefined;
}
