// Hand edits of the Vitality bar (a hit typed into the bar bubble, or TokenMod's edits): markers
// and saves owed follow; with "armor on manual edits" on, a decrease is read as raw damage. Each
// edit is a plan through the pipeline, like any command: read once, resolved, written, shown.
import { at, isRefusal, SUMMARY, TITLE, type Outcome, type Plan } from '../rules/edition';
import { sameData } from '../state/memory';
import { readInteger } from '../rules/values';
import { MAX_DAMAGE } from '../rules/values';
import { attributeCurrent, BAR_PROPS, characterOf } from '../roll20/read';
import type { App } from './context';
import { activeEdition, applyPlanTo, describeValueProblems, NO_ROLLS, planContext, readContext, writeContext } from './pipeline';
import { send, TO_GM } from '../roll20/send';
import { renderLine } from '../render/card';
import { present } from './present';
import { joinLinkedEdit, recordApplication, undoCommand } from './history';
import { isCard } from './targets';
import { attributeTold, tokensLinkedTo } from '../roll20/attributes';


export function onTokenChange(app: App, token: Roll20Graphic, prev: Record<string, unknown> | undefined): void {
  if (!prev || isCard(token)) return;
  const settings = app.store.settings;
  const key = BAR_PROPS[settings.bars.vitality].value;
  if (!(key in prev)) return;
  const before = readInteger(prev[key]);
  const link = String(token.get(BAR_PROPS[settings.bars.vitality].link) ?? '');
  let { typed, keepInStep } = editedValue(token, key, link, before);
  // Not numbers on either side: nothing the rules can read; the bar is left as the user typed it.
  if (before === null || typed === null || before === typed) return;
  const edition = activeEdition(app);
  const target = { token, character: characterOf(token) };
  const echo = link ? app.linkedEdits.get(link) : undefined;
  // Another token of the same linked attribute reporting the edit already read through armor.
  // It shows what the user typed (Roll20 copied the edit) or what the armor left (our write reached it first).
  // Each other token of the sheet reports it once; the token that was edited, editing again, is a new edit.
  const alreadyRead = echo !== undefined && echo.by !== token.id && !echo.echoed.has(token.id) && echo.from === before && (echo.to === typed || echo.typed === typed);
  if (alreadyRead) echo.echoed.add(token.id);
  if (link && !alreadyRead) app.linkedEdits.delete(link);
  if (alreadyRead && echo.to !== typed) {
    // The token still shows what was typed: it follows what the armor left, as the sheet does.
    typed = echo.to;
    keepInStep = { tokenProps: { [key]: echo.to } };
  }

  if (settings.armorOnManualEdits && !alreadyRead && typed < before && before - typed <= MAX_DAMAGE) {
    // commands.md: a decrease is treated exactly as `!damage N` (physical, using the pending defense).
    const hit = edition.hit.handEdit(before - typed, planContext(app, true));
    const plan: Plan<unknown> = {
      ...hit,
      resolve(facts, rolls) {
        // The dead take no hit: the edit is a plain one.
        if (edition.life.condition(facts.state, before) === 'dead') return { kind: 'refused', reason: 'dead' };
        const resolution = hit.resolve(facts, rolls);
        // The rules start from the value before the edit: a hit the armor takes whole leaves that
        // value as it was, so no change names it. The bar holds what was typed: it goes back too.
        if (!isRefusal(resolution) && !resolution.changes.some((change) => change.kind === 'bar' && change.resource === 'vitality')) {
          resolution.changes.push({ kind: 'bar', resource: 'vitality', to: before });
        }
        return resolution;
      },
    };
    const result = applyPlanTo(
      app,
      target,
      plan,
      NO_ROLLS,
      readContext(app),
      writeContext(app),
      // No token props kept in step here: the hit's Vitality change writes the bar (and a stale token
      // set to what was typed would carry that value back to the linked attribute, undoing the armor).
      () => ({ vitalityFrom: before, title: at(TITLE, { kind: 'hand-edit-read-title', who: token.id, before, typed }) }),
      // The hit starts from what the token held before the user typed; a token first met enters there.
      { vitality: before },
    );
    if (result.kind === 'unsafe') return; // never written (commands.md, "Numbers written")
    if (result.kind === 'problems') {
      // The armor cannot be read: the edit stays as typed (a plain edit below), and the GM is told why (the dead take no hit: nothing to tell).
      if (result.reading.condition !== 'dead') send(TO_GM, renderLine(`Hand edit not read through armor: ${describeValueProblems(result.reading.snapshot, result.reading.problems, '')}.`));
    } else if (result.kind === 'written') {
      const vitalityAfter = result.outcome.changes.find((change) => change.kind === 'bar' && change.resource === 'vitality');
      if (link) app.linkedEdits.set(link, { from: before, typed, to: vitalityAfter?.kind === 'bar' ? vitalityAfter.to : before, by: token.id, echoed: new Set() });
      const key = recordApplication(app, { by: 'hand-edit', kind: 'hand-edit', round: app.store.round.number, tokens: [result.applied] });
      // A hand edit is the GM's to undo: the Undo goes on the GM's card (or the public one the GM reads).
      present(app, [result.shown], { title: 'Hand edit', replyTo: 'gm', ...(key ? { undo: { command: undoCommand(key), byGm: true } } : {}) });
      return;
    }
  }

  // A token of the sheet following an edit: the memory they share moved already, it only takes its condition's markers.
  const edit = plainEdit(app, alreadyRead ? typed : before, typed);
  const result = applyPlanTo(app, target, edit.plan, NO_ROLLS, readContext(app), writeContext(app), () => ({ vitalityFrom: before, ...keepInStep }), { vitality: before });
  if (result.kind !== 'written') return;
  // Another token of the sheet following an edit read through armor: undoing that edit undoes this too.
  if (alreadyRead && !echo.plain) joinLinkedEdit(app, link, result.applied);
  else if (link && !alreadyRead) app.linkedEdits.set(link, { from: before, typed, to: typed, by: token.id, echoed: new Set(), plain: true });
  if (edit.saysSomething()) present(app, [result.shown], { title: 'Hand edit', replyTo: 'gm' });
}

/**
 * Another script's write of an attribute, told to us by that script (ChatSetAttr's `change`
 * observer: the attribute and a copy of it before; API writes fire no Roll20 event). A user's edit
 * of the sheet reaches each token showing that attribute as a bar edit; this one does the same.
 */
export function onAttributeEdit(app: App, attribute: unknown, prev: unknown): void {
  const told = attributeTold(attribute);
  if (told === undefined || told.id === '' || typeof prev !== 'object' || prev === null) return;
  const before = (prev as Record<string, unknown>).current;
  // Not a change of a number: no bar the rules read moved (and no token is looked for).
  const from = readInteger(before);
  const to = readInteger(told.current);
  if (from === null || to === null || from === to) return;
  const bar = app.store.settings.bars.vitality;
  for (const token of tokensLinkedTo(told.id, bar)) onTokenChange(app, token, { [BAR_PROPS[bar].value]: before });
}

/**
 * The value an edit left: the token's bar, or, when that still shows the old value, its linked
 * attribute. TokenMod edits a linked bar through its attribute only and tells its observers at once,
 * before Roll20 copies the attribute to the bar; the token is then written in step with it.
 */
function editedValue(token: Roll20Graphic, key: string, link: string, before: number | null): { typed: number | null; keepInStep?: { tokenProps: Record<string, unknown> } } {
  const onToken = readInteger(token.get(key as 'bar1_value'));
  if (link === '' || onToken !== before) return { typed: onToken };
  const onSheet = readInteger(attributeCurrent(link));
  if (onSheet === null || onSheet === before) return { typed: onToken };
  return { typed: onSheet, keepInStep: { tokenProps: { [key]: onSheet } } };
}

/** A plain hand edit as a plan: the edition settles conditions; a card only when the condition or the stored state changed, or the bar was set back. */
function plainEdit(app: App, before: number, typed: number): { plan: Plan<unknown>; saysSomething: () => boolean } {
  const edition = activeEdition(app);
  let says = false;
  const plan: Plan<unknown> = {
    values: [],
    dice: [],
    resolve(facts) {
      const state = facts.state;
      const set = edition.life.setVitality(before, typed, state);
      const who = facts.id;
      // The condition and markers are written whatever happens; a card only when the condition or
      // saves changed (the state as it stood, settled at the old Vitality, against the new one) or the bar was set back.
      // The condition is asked too: an edition may read it from Vitality alone and store nothing.
      const settled = edition.life.setVitality(before, before, state).state;
      says =
        set.vitality !== typed ||
        !sameData(settled, set.state) ||
        edition.life.condition(settled, before) !== edition.life.condition(set.state, set.vitality);
      const outcome: Outcome<unknown> = {
        headline: 'acts',
        steps: [
          at(TITLE, { kind: 'hand-edit-title', who }),
          at(SUMMARY, { kind: 'hand-edit-summary', who, now: set.now }),
          ...set.steps.map((step) => at('Change', step)),
          set.now ? at('Now', set.now) : at('Now', { kind: 'standing' }),
        ],
        changes: set.vitality !== typed ? [{ kind: 'bar', resource: 'vitality', to: set.vitality }] : [],
        state: set.state,
        ...(set.dropsAnswer ? { answer: null } : {}),
        detail: set,
      };
      return outcome;
    },
  };
  return { plan, saysSomething: () => says };
}
