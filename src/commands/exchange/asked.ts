// An open attack as each of its defenders meets it (rules.md, "The exchange"): the declared line
// parsed once per attack, the edition's view of it per defender (an area attack's edge), and
// whether a defense made ahead stands in for it.
import type { AnyEdition, AttackAsked, Order } from '../../rules/edition';
import type { OpenAttack } from '../../state/attacks';
import type { App } from '../context';
import { attackOrderOf, lineOf } from './line';

const orders = new WeakMap<OpenAttack, Order>();

/** The attack's declared line as its order, parsed once per open attack. */
export function orderOfAttack(edition: AnyEdition, attack: OpenAttack): Order {
  let order = orders.get(attack);
  if (!order) {
    order = attackOrderOf(lineOf(attack), edition);
    orders.set(attack, order);
  }
  return order;
}

/** The order a new attack was declared with, kept so its prompts and hit do not parse the line again. */
export function rememberOrder(attack: OpenAttack, order: Order): void {
  orders.set(attack, order);
}

/** The attack as one defender meets it. */
export function askedOf(edition: AnyEdition, attack: OpenAttack, defender: string): AttackAsked {
  const spec = edition.check.answers;
  const declared = orderOfAttack(edition, attack);
  const order = spec.forDefender(declared, defender);
  return { key: attack.key, order, situation: order === declared ? attack.situation : spec.situation(order), attacker: attack.attacker, defender, defenders: attack.defenders };
}

/**
 * Why the defender's defense made ahead does not stand in for this attack (rules.md: only where it
 * fits the attack's situation); undefined: it has none on file, or it answers the attack.
 */
export function aheadMisfit(app: App, edition: AnyEdition, attack: OpenAttack, defender: string): string | undefined {
  const box = app.store.exchange.waiting[defender];
  if (box === undefined || box.edition !== edition.id) return undefined;
  return edition.check.answers.fits?.(box.answer, askedOf(edition, attack, defender)) ?? undefined;
}
