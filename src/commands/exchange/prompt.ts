// The prompts of an attack (commands.md, "!attack"): one whispered card per controller of its
// defenders (the GM for NPCs), each defender with a button for every answer the rules allow now
// and, for the others, why not in a few words; the GM's card holds every defender's buttons (the
// GM answers for anyone), then the waiting list with Resolve now and Cancel. A defender with a
// defense made ahead is answered by it: no buttons.
import { ACTION, isRefusal, type AnyEdition, type Order, type Plan, type Refusal } from '../../rules/edition';
import { RefusalError, UsageError } from '../../text/args';
import type { OpenAttack } from '../../state/attacks';
import { characterOf, findToken, tokenName, type ReadContext } from '../../roll20/read';
import { controllersOf, displayName, whisperTarget } from '../../roll20/players';
import { hiddenFromPlayers } from '../../roll20/visible';
import { readTurnOrder } from '../../roll20/turnorder';
import { send, TO_GM, whisperTo } from '../../roll20/send';
import { isSafeId, renderCard, type Button, type Card } from '../../render/card';
import type { App } from '../context';
import { activeEdition, planContext, readContext, readTarget } from '../pipeline';
import { attackerName, attackerSeen, settlesItself, unanswered } from './attacks';
import { answeredAhead } from './waiting';
import { aheadMisfit, askedOf } from './asked';
import { cutWhole as cut } from '../../text/cut';

/** Why an answer is not offered now, in a few words. */
function whyNot(refusal: Refusal): string {
  switch (refusal.kind) {
    case 'refused': {
      // Its first clause: the card says why in a few words (the full rule is --help's).
      const clause = /^(.*?[^-])(?:: |\. |\.$|; )/.exec(refusal.reason);
      const text = clause ? clause[1]! : refusal.reason;
      return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
    }
    case 'missing-value':
      return `no ${refusal.key} to roll against`;
    case 'bar':
      return 'its Vitality is not a number';
  }
}

type Row = Card['rows'][number];

/** One defender's row on the GM's card, and (`players`) on its controllers' (which name no token hidden from them): read once for both. */
interface DefenderRows {
  gm: Row;
  player: Row;
}

/** A defender's rows: its buttons, or why an answer is missing, or the defense it already made. */
function defenderRows(app: App, edition: AnyEdition, attack: OpenAttack, tokenId: string, players: boolean, reads: ReadContext, hit?: HitReads): DefenderRows | undefined {
  const token = findToken(tokenId);
  if (!token) return undefined;
  const target = { token, character: characterOf(token) };
  const name = tokenName(token, 'a token');
  const spec = edition.check.answers;
  const context = planContext(app, true);
  const same = (row: Row): DefenderRows => ({ gm: row, player: row });
  if (answeredAhead(app, attack, tokenId)) return same({ label: name, lines: ['Answered by the defense it made ahead (!defend)'] });
  const kept = attack.answers[tokenId];
  if (kept) return same({ label: name, lines: [kept.spared !== undefined ? `Not prompted: ${kept.spared}` : `Answered: ${kept.word}`] });
  const asked = askedOf(edition, attack, tokenId);
  const lines: string[] = [];
  const buttons: Button[] = [];
  // rules.md, "The exchange": a defense made ahead for another situation does not stand in; the card says why.
  const misfit = aheadMisfit(app, edition, attack, tokenId);
  if (misfit !== undefined) lines.push(`Its defense made ahead does not answer this attack: ${misfit}`);
  // Each reason once, before the answers it keeps off the card.
  const missing: Array<{ answers: string[]; why: string }> = [];
  // An answer the edition's own check refuses to plan (a flag its table requires) is not offered, with why; the attack stands.
  const refusedPlans: Array<{ word: string; why: string }> = [];
  const plans = spec.choices.flatMap((word): Array<{ word: string; plan: Plan<unknown> | undefined }> => {
    if (word === 'none') return [{ word, plan: undefined }];
    try {
      return [{ word, plan: spec.planAnswer(word, asked, context, NO_ANSWER_FLAGS) }];
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof RefusalError)) throw error;
      refusedPlans.push({ word, why: error.message });
      return [];
    }
  });
  // One reading of the defender for every answer and for whether the hit can touch it: the values and tokens any of them names.
  const planned: Array<Pick<Plan<unknown>, 'values' | 'maxes' | 'bars' | 'others' | 'more'>> = plans.flatMap(({ plan }) => (plan ? [plan] : []));
  const hitPlan = hit?.(asked.order);
  if (hitPlan && spec.spared) planned.push(hitPlan);
  const { facts } = readTarget(app, target, {
    values: union(planned.map((plan) => plan.values)),
    maxes: union(planned.map((plan) => plan.maxes)),
    bars: union(planned.map((plan) => plan.bars)),
    others: union(planned.map((plan) => plan.others)),
    more: (read) => {
      const more = planned.map((plan) => plan.more?.(read));
      return more.some((reads) => reads !== undefined) ? { values: union(more.map((reads) => reads?.values)), maxes: union(more.map((reads) => reads?.maxes)) } : undefined;
    },
  }, reads);
  // rules.md, "The exchange": a defender the hit cannot touch is not prompted; it stands answered with no defense.
  const spared = hitPlan ? spec.spared?.(facts, asked) : null;
  if (spared) {
    // A defense made ahead that did not fit is used up by the miss, as `!damage` would use it.
    attack.answers[tokenId] = misfit === undefined ? { word: 'none', spared: cut(spared, 200) } : { word: 'none', spared: cut(spared, 200), replaces: true };
    return same({ label: name, lines: [`Not prompted: ${spared}`] });
  }
  for (const { word, plan } of plans) {
    const answer = `!defend --answer ${attack.key} --ids ${tokenId} --${spec.answerFlag} ${word}`;
    const label = spec.label(word, facts, asked);
    if (!plan) {
      buttons.push({ label, command: answer });
      continue;
    }
    // Every die at its best (1 on a d100): the rules refuse an answer before any roll decides it, and one that fails even so cannot succeed.
    const rolls = Object.fromEntries(plan.dice.map((die) => [die.name, 1]));
    const resolution = plan.resolve(facts, rolls);
    const why = isRefusal(resolution) ? whyNot(resolution) : spec.keep(word, resolution, rolls).success === false ? CANNOT_SUCCEED : undefined;
    if (why !== undefined) {
      const shown = why === CANNOT_SUCCEED ? label : label.replace(/ \(.*\)$/, '');
      const same = missing.find((entry) => entry.why === why);
      if (same) same.answers.push(shown);
      else missing.push({ answers: [shown], why });
    } else buttons.push({ label, command: answer });
  }
  for (const { word, why } of refusedPlans) missing.push({ answers: [word], why });
  for (const { answers, why } of missing) lines.push(`${answers.join(', ')}: ${why}`);
  const rowFor = (gm: boolean): Row => {
    // A player's card names no hidden attacker or other defender, not even in a button's command.
    const seen = gm ? asked : { ...asked, attacker: attackerSeen(attack, false), defenders: asked.defenders.filter((id) => id === tokenId || seenByPlayers(id)) };
    // Another token named on a player's card only when she sees it (a Reactive Guard for a defender on the GM layer is not offered).
    const nameOf = (id: string): string | undefined => {
      const other = findToken(id);
      return other && (gm || !hiddenFromPlayers(other)) ? tokenName(other, 'a token') : undefined;
    };
    const its = { label: name, lines: [...lines], buttons: [...buttons] };
    for (const extra of spec.extra?.(facts, seen, nameOf) ?? []) {
      if (extra.kind === 'line') its.lines.push(extra.label);
      else if (extra.section === ACTION) its.buttons.push({ label: extra.label, command: extra.command });
    }
    if (!isSafeId(tokenId)) its.buttons = [];
    return its;
  };
  const gm = rowFor(true);
  return { gm, player: players ? rowFor(false) : gm };
}

/** A token on the table the players see (not on the GM layer). */
function seenByPlayers(tokenId: string): boolean {
  const token = findToken(tokenId);
  return token !== undefined && !hiddenFromPlayers(token);
}

/** The reason an answer whose check fails even at the best roll is not offered. */
const CANNOT_SUCCEED = 'cannot succeed here (no roll makes it)';

/** A prompt plans each answer as offered: no flags of the answerer's own. */
const NO_ANSWER_FLAGS: Order = Object.freeze({ positionals: Object.freeze([]) as readonly string[] });

/** The hit's plan for a defender's order (what it reads tells whether the hit can touch it). */
export type HitReads = (order: Order) => Plan<unknown> | undefined;

/** Each name once, in the order first named. */
function union<T>(lists: ReadonlyArray<readonly T[] | undefined>): T[] {
  return [...new Set(lists.flatMap((list) => list ?? []))];
}

/** What the prompts read of the table, once for all their defenders: the Turn Tracker too (a defender on its own turn makes no defense). */
function promptReads(app: App): ReadContext {
  return readContext(app, readTurnOrder());
}

/** Who answers for a defender: its controlling players; none, the GM's own (a token no player controls). */
function answerersOf(tokenId: string): string[] {
  const token = findToken(tokenId);
  return token ? controllersOf(token, characterOf(token)) : [];
}

/** The card's title: the attack and its attacker (unseen, for a player, when it is hidden). */
function promptTitle(attack: OpenAttack, gm: boolean): string {
  return `Attack ${attack.key}: ${attackerName(attack, gm)} attacks`;
}

/** The card's first row: the situation and its effect. */
function situationRow(edition: AnyEdition, attack: OpenAttack): Card['rows'] {
  return attack.situation ? [{ label: 'Situation', lines: [edition.check.answers.situationWords(attack.situation)] }] : [];
}

/** A defender's row on the GM's card, marked with whose token it is when players answer for it ("Bob (Alice's)"): the GM may answer for anyone. */
function gmRow(rows: DefenderRows, answerers: readonly string[]): Row {
  return answerers.length === 0 ? rows.gm : { ...rows.gm, label: `${rows.gm.label} (${answerers.map((id) => `${cut(displayName(id), 40)}'s`).join(', ')})` };
}

/**
 * Sends each controller's prompt, and the GM's card with every defender's buttons, the waiting list
 * and its buttons; none when nobody is left to wait for (a defense made ahead, every defender
 * spared): the attack resolves at once and its result says it all.
 */
export function sendPrompts(app: App, attack: OpenAttack, hit?: HitReads): void {
  const edition = activeEdition(app);
  const reads = promptReads(app);
  const byAnswerer = new Map<string, Row[]>();
  const gmRows: Row[] = [];
  for (const tokenId of attack.defenders) {
    const answerers = answerersOf(tokenId);
    // A defender two players control is read once for both their cards and the GM's.
    const rows = defenderRows(app, edition, attack, tokenId, answerers.length > 0, reads, hit);
    if (!rows) continue;
    gmRows.push(gmRow(rows, answerers));
    for (const who of answerers) {
      const list = byAnswerer.get(who) ?? [];
      list.push(rows.player);
      byAnswerer.set(who, list);
    }
  }
  if (settlesItself(app, attack)) return;
  for (const [who, rows] of byAnswerer) send(whisperTo(whisperTarget(who)), renderCard({ title: promptTitle(attack, false), rows: [...situationRow(edition, attack), ...rows] }), { record: true });
  send(TO_GM, renderCard(gmCard(app, edition, attack, gmRows)), { record: true });
}

/** The rows of the defenders still to answer, each with its buttons: the GM's (any defender, marked whose), or one player's (hers only). */
export function waitingRows(app: App, edition: AnyEdition, attack: OpenAttack, player?: string): Row[] {
  const reads = promptReads(app);
  const rows: Row[] = [];
  for (const tokenId of unanswered(app, attack)) {
    const answerers = answerersOf(tokenId);
    if (player !== undefined && !answerers.includes(player)) continue;
    const found = defenderRows(app, edition, attack, tokenId, player !== undefined, reads);
    if (found) rows.push(player === undefined ? gmRow(found, answerers) : found.player);
  }
  return rows;
}

/** The GM's card: the defenders' rows (by default those still to answer, with their buttons), then who is still to answer, with Resolve now and Cancel. */
export function gmCard(app: App, edition: AnyEdition, attack: OpenAttack, rows: readonly Row[] = waitingRows(app, edition, attack)): Card {
  const waiting = unanswered(app, attack).map((tokenId) => {
    const token = findToken(tokenId);
    return token ? tokenName(token, 'a token') : 'a token gone from the table';
  });
  return {
    title: promptTitle(attack, true).replace(/^Attack (\w+):/, 'Attack $1 (GM):'),
    rows: [
      ...situationRow(edition, attack),
      ...rows,
      {
        label: 'Waiting for',
        lines: [waiting.length > 0 ? waiting.join(', ') : 'you: every defender has answered'],
        buttons: [
          { label: 'Resolve now', command: `!attack --resolve ${attack.key}` },
          { label: 'Cancel', command: `!attack --cancel ${attack.key}` },
        ],
      },
    ],
  };
}
