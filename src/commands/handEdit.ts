// Hand edits of the Vitality bar (a hit typed into the bar bubble, or TokenMod's edits): markers
// and saves owed follow; with "armor on manual edits" on, a decrease is read as raw damage.
import { applyHandEdit } from '../rules/soak/life';
import { readInteger } from '../rules/values';
import { characterOf, readToken } from '../roll20/read';
import { writeBar } from '../roll20/write';
import { notifyObservers } from '../roll20/observers';
import { damageCard, damageShortLine, lifeLine } from '../render/damageCard';
import { describeDamageStep } from '../render/damageSteps';
import type { App } from './context';
import { deliver } from './deliver';
import { applySoakDamage, protectionPlaceOf, type SoakDamageOrder } from './soakDamage';
import { commitLife, currentLife, resourcesOf } from './tokenLife';
import { captureToken, recordApplication } from './history';
import { MAX_DAMAGE } from './damage';
import { isCard } from './targets';

export function onTokenChange(app: App, token: Roll20Graphic, prev: Record<string, unknown> | undefined): void {
  if (!prev || isCard(token)) return;
  const settings = app.store.settings;
  const key = `${settings.bars.vitality}_value`;
  if (!(key in prev)) return;
  const before = readInteger(prev[key]);
  const typed = readInteger(token.get(key as 'bar1_value'));
  // Not numbers on either side: nothing the rules can read; the bar is left as the user typed it.
  if (before === null || typed === null || before === typed) return;
  const snapshot = readToken(token, characterOf(token), settings);
  const life = currentLife(app, snapshot.id, before);
  const link = snapshot.bars.vitality.link;
  const echo = link ? app.linkedEdits.get(link) : undefined;
  // Another token of the same linked attribute reporting the edit already read through armor.
  const alreadyRead = echo !== undefined && echo.from === before && echo.to === typed;
  if (link && !alreadyRead) app.linkedEdits.delete(link);

  if (settings.armorOnManualEdits && !alreadyRead && typed < before && life.condition !== 'dead' && before - typed <= MAX_DAMAGE) {
    // commands.md: a decrease is treated exactly as `!damage N` (physical, using the pending defense).
    const order: SoakDamageOrder = {
      amount: before - typed,
      track: 'physical',
      piercePercent: 0,
      to: 'vitality',
      instantKill: false,
      defenseOverride: null,
    };
    const place = protectionPlaceOf(app, snapshot, order);
    const found = captureToken(app, token, place);
    found.bars.vitality = before; // what the token held before the user typed
    const outcome = applySoakDamage(app, snapshot, before, order);
    if (link) app.linkedEdits.set(link, { from: before, to: outcome.bars.vitality });
    recordApplication(app, {
      by: 'hand-edit',
      kind: 'hand-edit',
      round: app.store.round.number,
      tokens: [{ tokenId: token.id, name: snapshot.name, before: found, after: captureToken(app, token, place) }],
    });
    const card = damageCard(snapshot.name, order, outcome);
    card.title = `${snapshot.name}: Vitality edited by hand, ${before} -> ${typed}, read through armor`;
    deliver(settings, snapshot, { card, shortLine: damageShortLine(snapshot.name, outcome, life) });
    return;
  }

  const result = applyHandEdit(before, typed, life);
  if (result.after !== typed) writeBar(snapshot, 'vitality', result.after);
  const markers = commitLife(app, snapshot, result.life);
  notifyObservers(
    token,
    { ...resourcesOf(snapshot, life.condition, snapshot.statusmarkers), vitality: before },
    { ...resourcesOf(snapshot, result.life.condition, markers), vitality: result.after },
    result,
    prev,
  );
  const changedCondition = result.life.condition !== life.condition || result.life.savesOwed !== life.savesOwed;
  if (!changedCondition && result.after === typed) return;
  const now = lifeLine(result.life);
  deliver(settings, snapshot, {
    card: {
      title: `${snapshot.name}: Vitality edited by hand`,
      rows: [
        { label: 'Change', lines: result.steps.map(describeDamageStep) },
        { label: 'Now', lines: [now ?? 'Standing'] },
      ],
    },
    shortLine: now ? `${snapshot.name}: ${now.split(':')[0]}.` : `${snapshot.name} is back on their feet.`,
  });
}
