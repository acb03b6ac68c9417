// The prompts of an attack (commands.md, "!attack"): one whispered card per controller of its
// defenders (the GM for NPCs), each defender with a button for every answer the rules allow now
// and, for the others, why not in a few words; the GM's card also holds the waiting list with
// Resolve now and Cancel. A defender with a defense made ahead is answered by it: no buttons.
import { ACTION, isRefusal, type AnyEdition, type Plan, type Refusal } from '../../rules/edition';
import { RefusalError, UsageError } from '../../text/args';
import type { OpenAttack } from '../../state/attacks';
import { characterOf, findToken, tokenName, type ReadContext } from '../../roll20/read';
import { controllersOf, whisperTarget } from '../../roll20/players';
import { readTurnOrder } from '../../roll20/turnorder';
import { send, TO_GM, whisperTo } from '../../roll20/send';
import { isSafeId, renderCard, type Button, type Card } from '../../render/card';
import type { App } from '../context';
import { activeEdition, planContext, readContext, readTarget } from '../pipeline';
import { attackerName, attackerSeen, unanswered } from './attacks';
import { answeredAhead } from './waiting';

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

/** A card's row for one defender: its buttons, or why an answer is missing, or the defense it already made. */
function defenderRow(app: App, edition: AnyEdition, attack: OpenAttack, tokenId: string, gm: boolean, reads: ReadContext): Card['rows'][number] | undefined {
  const token = findToken(tokenId);
  if (!token) return undefined;
  const target = { token, character: characterOf(token) };
  const name = tokenName(token, 'a token');
  const spec = edition.check.answers;
  const context = planContext(app, true);
  if (answeredAhead(app, tokenId)) return { label: name, lines: ['Answered by the defense it made ahead (!defend)'] };
  const kept = attack.answers[tokenId];
  if (kept) return { label: name, lines: [`Answered: ${kept.word}`] };
  const lines: string[] = [];
  const buttons: Button[] = [];
  // Each reason once, before the answers it keeps off the card.
  const missing: Array<{ answers: string[]; why: string }> = [];
  // An answer the edition's own check refuses to plan (a flag its table requires) is not offered, with why; the attack stands.
  const refusedPlans: Array<{ word: string; why: string }> = [];
  const plans = spec.choices.flatMap((word): Array<{ word: string; plan: Plan<unknown> | undefined }> => {
    if (word === 'none') return [{ word, plan: undefined }];
    try {
      return [{ word, plan: spec.planAnswer(word, attack.situation, attack.attacker, context) }];
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof RefusalError)) throw error;
      refusedPlans.push({ word, why: error.message });
      return [];
    }
  });
  // One reading of the defender for every answer: the values and tokens any of them names.
  const planned = plans.flatMap(({ plan }) => (plan ? [plan] : []));
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
  for (const { word, plan } of plans) {
    const answer = `!defend --answer ${attack.key} --ids ${tokenId} --${spec.answerFlag} ${word}`;
    const label = spec.label(word, facts);
    if (!plan) {
      buttons.push({ label, command: answer });
      continue;
    }
    // Rolled at the middle of each die: the rules refuse an answer before any roll decides it.
    const rolls = Object.fromEntries(plan.dice.map((die) => [die.name, Math.ceil(die.sides / 2)]));
    const resolution = plan.resolve(facts, rolls);
    if (isRefusal(resolution)) {
      const why = whyNot(resolution);
      const same = missing.find((entry) => entry.why === why);
      if (same) same.answers.push(label.replace(/ \(.*\)$/, ''));
      else missing.push({ answers: [label.replace(/ \(.*\)$/, '')], why });
    } else buttons.push({ label, command: answer });
  }
  for (const { word, why } of refusedPlans) missing.push({ answers: [word], why });
  for (const { answers, why } of missing) lines.push(`${answers.join(', ')}: ${why}`);
  // A player's card names no hidden attacker, not even in a button's command.
  const attacker = attackerSeen(attack, gm);
  for (const extra of spec.extra?.(facts, attacker) ?? []) if (extra.section === ACTION) buttons.push({ label: extra.label, command: extra.command });
  return { label: name, lines, buttons: isSafeId(tokenId) ? buttons : [] };
}

/** Each name once, in the order first named. */
function union<T>(lists: ReadonlyArray<readonly T[] | undefined>): T[] {
  return [...new Set(lists.flatMap((list) => list ?? []))];
}

/** What the prompts read of the table, once for all their defenders: the Turn Tracker too (a defender on its own turn makes no defense). */
function promptReads(app: App): ReadContext {
  return readContext(app, readTurnOrder());
}

/** Who answers for a defender: its controlling players, or the GM for a token no player controls. */
function answerersOf(tokenId: string): string[] {
  const token = findToken(tokenId);
  if (!token) return ['gm'];
  const players = controllersOf(token, characterOf(token));
  return players.length > 0 ? players : ['gm'];
}

/** The card's title: the attack and its attacker (unseen, for a player, when it is hidden). */
function promptTitle(attack: OpenAttack, gm: boolean): string {
  return `Attack ${attack.key}: ${attackerName(attack, gm)} attacks`;
}

/** The card's first row: the situation and its effect. */
function situationRow(edition: AnyEdition, attack: OpenAttack): Card['rows'] {
  return attack.situation ? [{ label: 'Situation', lines: [edition.check.answers.situationWords(attack.situation)] }] : [];
}

/** Sends each controller's prompt, and the GM's card with the waiting list and its buttons. */
export function sendPrompts(app: App, attack: OpenAttack): void {
  const edition = activeEdition(app);
  const reads = promptReads(app);
  const byAnswerer = new Map<string, string[]>();
  for (const tokenId of attack.defenders) {
    for (const who of answerersOf(tokenId)) {
      const list = byAnswerer.get(who) ?? [];
      list.push(tokenId);
      byAnswerer.set(who, list);
    }
  }
  // A defender two players control is read once for both their cards.
  const playerRows = new Map<string, Card['rows'][number] | undefined>();
  const rowOf = (tokenId: string) => {
    if (!playerRows.has(tokenId)) playerRows.set(tokenId, defenderRow(app, edition, attack, tokenId, false, reads));
    return playerRows.get(tokenId) ?? [];
  };
  for (const [who, tokens] of byAnswerer) {
    if (who === 'gm') continue;
    const rows = tokens.flatMap(rowOf);
    if (rows.length > 0) send(whisperTo(whisperTarget(who)), renderCard({ title: promptTitle(attack, false), rows: [...situationRow(edition, attack), ...rows] }), { record: true });
  }
  send(TO_GM, renderCard(gmCard(app, edition, attack, byAnswerer.get('gm') ?? [], reads)), { record: true });
}

/** The GM's card: the GM's own defenders' buttons, then who is still to answer, with Resolve now and Cancel. */
export function gmCard(app: App, edition: AnyEdition, attack: OpenAttack, own: readonly string[], reads: ReadContext = promptReads(app)): Card {
  const rows = [...situationRow(edition, attack), ...own.flatMap((tokenId) => defenderRow(app, edition, attack, tokenId, true, reads) ?? [])];
  const waiting = unanswered(app, attack).map((tokenId) => {
    const token = findToken(tokenId);
    return token ? tokenName(token, 'a token') : 'a token gone from the table';
  });
  rows.push({
    label: 'Waiting for',
    lines: [waiting.length > 0 ? waiting.join(', ') : 'nobody'],
    buttons: [
      { label: 'Resolve now', command: `!attack --resolve ${attack.key}` },
      { label: 'Cancel', command: `!attack --cancel ${attack.key}` },
    ],
  });
  return { title: promptTitle(attack, true).replace(/^Attack (\w+):/, 'Attack $1 (GM):'), rows };
}
