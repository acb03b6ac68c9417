// An attack resolved (commands.md, "!attack"): through the one pipeline, each defender takes the
// hit `!damage` would have made, reading its answer to the attack in place of the one on file.
import { RefusalError } from '../../text/args';
import { isRefusal, type KeptAnswer, type Order, type OtherFacts, type Plan, type RuleChange } from '../../rules/edition';
import type { KeptAnswerRecord, OpenAttack } from '../../state/attacks';
import { characterOf, findToken } from '../../roll20/read';
import type { CommandContext } from '../context';
import { activeEdition, givenDice, planContext, runPlans, type PlannedTarget } from '../pipeline';
import type { Target } from '../targets';
import { attackerName, beginResolving, claimAttack } from './attacks';
import { answeredAhead } from './waiting';
import { lineOf } from './line';
import { aheadMisfit, askedOf, orderOfAttack } from './asked';

/**
 * Resolves an attack through the pipeline: each defender takes the hit `!damage` would have made,
 * the declared line parsed once for all of them (`hit`: as its declaration parsed it, when it
 * settles at once); an answered one reads its answer in place of the one on file; unanswered ones
 * take no defense (or, in an edition with defense modes, their own), their rows saying "No answer"
 * (`late`: those the answer time limit ran out on, "No answer in time"). `said`: the check of the
 * answer that resolves it, as its row says it.
 */
export function resolveAttack(ctx: CommandContext, attack: OpenAttack, hit?: Plan<unknown>, said?: { tokenId: string; words: string }, late?: readonly string[]): void | Promise<void> {
  const app = ctx.app;
  const edition = activeEdition(app);
  const spec = edition.check.answers;
  const line = lineOf(attack);
  const declared = orderOfAttack(edition, attack);
  const plan = hit ?? edition.hit.plan(declared, planContext(app, attack.gm));
  const given = givenDice(line, plan.dice);
  // The hit as each defender meets it (an area attack's edge): one plan per order the edition gives.
  const plans = new Map<Order, Plan<unknown>>([[declared, plan]]);
  const planFor = (order: Order): Plan<unknown> => {
    let found = plans.get(order);
    if (!found) plans.set(order, (found = edition.hit.plan(order, planContext(app, attack.gm))));
    return found;
  };
  // Open until its hit is applied: an edition switch while its roll is out cancels it by name.
  if (!beginResolving(app, attack)) throw new RefusalError(`attack ${attack.key} is being resolved already`);
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
    const asked = askedOf(edition, attack, tokenId);
    const item: PlannedTarget<unknown> = { target, plan: planFor(asked.order), given };
    // An answer given is this attack's, whatever `!defend` came later; it is read by the hit, never filed, so undo has none to bring back.
    if (kept) {
      // A defender the hit could not touch was never asked: its row says what the hit did, not an answer.
      if (kept.spared === undefined) {
        // The answer that resolves it: its row says the check as its line would have (the line is not sent).
        item.answer = said?.tokenId === tokenId ? said.words : answerWords(kept);
        item.answered = true;
      }
      item.answerGiven = { answer: kept.answer ?? null };
      // Dice the answer rolled are the hit's (Opposed Rolls: the defense d20).
      const rolled = kept.answer === undefined ? undefined : spec.rolled?.(kept.answer);
      if (rolled) item.given = { ...given, ...rolled };
      // rules.md, "The exchange": an answer given in place of a defense made ahead that did not fit replaces it.
      if (kept.replaces && aheadMisfit(app, edition, attack, tokenId) !== undefined) item.replacesFiled = true;
      // An answer another token helped: what the help costs that token is written with the hit (and undone with it).
      const { helper } = kept;
      if (helper !== undefined && spec.settle) item.plan = settled(item.plan, helper, (other) => spec.settle!(kept as KeptAnswer<unknown>, other, asked));
    } else if (!answeredAhead(app, attack, tokenId)) {
      // Nobody answered (the GM resolved it first): its row says so; the hit reads no defense of its own unless one was made ahead for another situation.
      item.answer = late?.includes(tokenId) ? 'No answer in time' : 'No answer';
      if (app.store.exchange.waiting[tokenId] === undefined) item.answered = true;
    }
    // What the attack costs its attacker (a counter attack's reaction) is written once, with the first defender's hit.
    if (items.length === 0 && attack.attacker !== null && spec.spend) item.plan = settled(item.plan, attack.attacker, (other) => spec.spend!(other, asked));
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
    attack: { key: attack.key, attacker: (gm) => attackerName(attack, gm) },
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


/** The hit's plan with another token settled (an answer's helper, the attacker): read with the defender, its changes written beside the hit's. */
function settled(plan: Plan<unknown>, helper: string, settle: (other: OtherFacts<unknown>) => RuleChange[]): Plan<unknown> {
  return {
    ...plan,
    others: [...(plan.others ?? []), helper],
    resolve(facts, rolls) {
      const resolution = plan.resolve(facts, rolls);
      const other = facts.others[helper];
      if (isRefusal(resolution) || other === undefined) return resolution;
      return { ...resolution, changes: [...resolution.changes, ...settle(other)] };
    },
  };
}
