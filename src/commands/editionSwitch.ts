// Switching editions mid-campaign (rules.md, "Switching editions"): bars, worn armor and the Turn
// Tracker are kept; every token the script remembers enters the new edition from its Vitality
// (dead for good stays dead), loses a stance the new edition lacks, and gets its markers anew.
// Defenses made ahead in the edition left behind answer nothing in the new one; open attacks are
// cancelled; the script's own macros follow. The GM is told what changed, and what did not.
import type { Condition, EditionId, Plan } from '../rules/edition';
import { editionOf } from '../rules/editions';
import { characterOf, findToken, homeOf, linkedTokensOf } from '../roll20/read';
import type { App, CommandContext } from './context';
import { activeEdition, applyQuietly } from './pipeline';
import { cancelOpenAttacks, keepAnswersOf } from './exchange';
import { refreshHelpHandout } from './helpHandout';
import { hasOwnMacros, syncMacros } from './macros';
import { isCard, type Target } from './targets';
import { shortList } from './refusals';

/** A token whose condition the switch changed: its name and the condition before and after. */
export interface ConditionChange {
  name: string;
  from: Condition;
  to: Condition;
}

/** What a switch changed, for its answer. */
export interface EditionEntered {
  /** The tokens read again. */
  count: number;
  changed: ConditionChange[];
  /** The stances the new edition lacks, cleared: "Bob defensive". */
  stances: string[];
  /** The defenses made ahead in the edition left behind, cleared. */
  defenses: number;
}

/** Re-reads every remembered token in the (already set) active edition: how many, whose condition changed, what was cleared. */
export function enterEditionEverywhere(app: App, left: EditionId): EditionEntered {
  const edition = activeEdition(app);
  const before = editionOf(left);
  const defenses = keepAnswersOf(app, edition.id);
  const targets: Target[] = [];
  const changed: ConditionChange[] = [];
  const stances: string[] = [];
  const bar = app.store.settings.bars.vitality;
  // Each memory once, by where it lives, with the token it is read through.
  const homes = new Set<string>();
  const homeOfToken = new Map<string, string>();
  for (const id of Object.keys(app.store.tokens)) {
    // A character's memory is read again through one of its tokens (the others' markers follow as each is written).
    const token = findToken(id) ?? linkedTokensOf(id, bar)[0];
    if (!token || isCard(token)) continue;
    const home = homeOf(token, bar);
    if (homes.has(home)) continue;
    homes.add(home);
    homeOfToken.set(token.id, home);
    targets.push({ token, character: characterOf(token) });
  }
  const plan: Plan<unknown> = {
    values: [],
    dice: [],
    resolve(facts) {
      const record = app.store.tokens[homeOfToken.get(facts.id) ?? facts.id];
      const keepsStance = record?.stance === undefined || edition.stance.modes.includes(record.stance);
      if (!keepsStance) stances.push(`${facts.name} ${record!.stance}`);
      // Dead for good as the edition left behind judges it now (its rounds may have run out since it last wrote).
      const vitality = facts.bars.vitality.value;
      // A token remembered for something else (worn armor, a stance) is judged by its Vitality, as the edition left behind reads it.
      const oldState = (record?.edition?.id === left ? before.life.parseState(record.edition.state) : null) ?? before.life.enter(vitality, false);
      const deadForGood = record?.deadForGood === true || before.life.deadForGood(oldState, vitality);
      const state = edition.life.enter(vitality, deadForGood);
      // rules.md, "Switching editions": the GM is told whose condition the new edition reads otherwise.
      const from = before.life.condition(oldState, vitality);
      const to = edition.life.condition(state, vitality);
      if (from !== to) changed.push({ name: facts.name, from, to });
      return {
        headline: 'acts',
        steps: [],
        changes: [],
        // The state as entered now: the stored one belongs to the edition before.
        state,
        ...(keepsStance ? {} : { stance: null }),
        detail: { edition: edition.id },
      };
    },
  };
  applyQuietly(app, targets, plan);
  return { count: targets.length, changed, stances, defenses };
}

/**
 * The switch, once the setting says the new edition: every token read again, open attacks
 * cancelled (their players told), the handout and the script's own macros following; the GM's
 * answer says what changed and what is kept.
 */
export function switchEdition(ctx: CommandContext, left: EditionId, said: string): string {
  const app = ctx.app;
  const id = activeEdition(app).id;
  app.store.editionLeft = left;
  // rules.md, "Switching editions": conditions read again in the new edition's terms.
  const { count, changed, stances, defenses } = enterEditionEverywhere(app, left);
  refreshHelpHandout(activeEdition(app), { createIfMissing: false });
  const reread = count === 0 ? '' : changed.length > 0 ? describeConditionChanges(changed) : ` ${count === 1 ? 'One token' : `${count} tokens`} the script remembers ${count === 1 ? 'was' : 'were'} read again in its terms: no condition changed.`;
  const cleared = [
    stances.length > 0 ? `the stances the ${id} edition lacks (${shortList(stances, 6)})` : '',
    defenses > 0 ? `${defenses} defense${defenses === 1 ? '' : 's'} made ahead` : '',
    count > 0 ? 'saves owed and reactions' : '',
  ].filter((part) => part !== '');
  // commands.md, "!attack": the attacks open in the edition left behind are cancelled, their players told.
  const { keys, told } = cancelOpenAttacks(app);
  const attacks = keys.length === 0 ? '' : ` Open attack${keys.length === 1 ? '' : 's'} cancelled: ${keys.join(', ')}${told ? ' (their players are told)' : ''}.`;
  // The table's macros the script made follow the edition: the old ones would only be refused.
  const macros = hasOwnMacros(app) ? ` Table macros: ${syncMacros(app, ctx.playerId).join('; ')}.` : '';
  return `${said}${reread}${cleared.length > 0 ? ` Cleared: ${cleared.join('; ')}.` : ''}${attacks}${macros} Bars, worn armor and the Turn Tracker are kept, and sheet values are read as they are (not converted).`;
}

const CONDITION_WORD: Record<Condition, string> = { none: 'standing', incapacitated: 'incapacitated', dying: 'dying', dead: 'dead' };

/** The changed conditions in one sentence: "Conditions read again: Bob dying -> dead, Goblin 2 dead -> standing." */
export function describeConditionChanges(changed: readonly ConditionChange[]): string {
  if (changed.length === 0) return '';
  const said = changed.map(({ name, from, to }) => `${name} ${CONDITION_WORD[from]} -> ${CONDITION_WORD[to]}`);
  return ` Conditions read again: ${shortList(said, 6)}.`;
}
