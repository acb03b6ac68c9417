// Switching editions mid-campaign (rules.md, "Switching editions"): bars, worn armor and the Turn
// Tracker are kept; every token the script remembers enters the new edition from its Vitality
// (dead for good stays dead), loses a stance the new edition lacks, and gets its markers anew.
import type { EditionId } from '../rules/edition';
import { editionOf } from '../rules/editions';
import { applyOutcome } from '../roll20/write';
import { characterOf } from '../roll20/read';
import type { App } from './context';
import { activeEdition, readTarget, TOKEN_ONLY } from './pipeline';
import { isCard } from './targets';


/** Re-reads every remembered token in the (already set) active edition; returns how many. */
export function enterEditionEverywhere(app: App, left: EditionId): number {
  const edition = activeEdition(app);
  const before = editionOf(left);
  let count = 0;
  for (const id of Object.keys(app.store.tokens)) {
    const token = getObj('graphic', id);
    if (!token || isCard(token)) continue;
    const reading = readTarget(app, { token, character: characterOf(token) }, TOKEN_ONLY);
    const record = app.store.tokens[id];
    const keepsStance = record?.stance === undefined || edition.stances.includes(record.stance);
    // Dead for good as the edition left behind judges it now (its rounds may have run out since it last wrote).
    const vitality = reading.facts.bars.vitality.value;
    // A token remembered for something else (worn armor, a stance) is judged by its Vitality, as the edition left behind reads it.
    const oldState = (record?.edition?.id === left ? before.parseState(record.edition.state) : null) ?? before.enter(vitality, false);
    const deadForGood = record?.deadForGood === true || before.deadForGood(oldState, vitality);
    applyOutcome(
      { settings: app.store.settings, edition, tokens: app.store.tokens },
      reading,
      {
        headline: 'acts',
        steps: [],
        card: { title: '', rows: [] },
        shortLine: '',
        changes: [],
        // The state as entered now: the stored one belongs to the edition before.
        state: edition.enter(vitality, deadForGood),
        ...(keepsStance ? {} : { stance: null }),
        detail: { edition: edition.id },
      },
      { notify: false },
    );
    count += 1;
  }
  return count;
}
