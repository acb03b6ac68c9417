// Starts the script on Roll20's `ready`: loads and checks state, then registers every handler,
// each behind the one error path. Nothing here scans the campaign.
import { SCRIPT_NAME, SCRIPT_VERSION } from './version';
import { loadState, STATE_KEY } from './state/store';
import { applyInstallOptions } from './state/installOptions';
import { AttributeIndex, attributeTold } from './roll20/attributes';
import { guarded } from './roll20/guard';
import { whisperTarget } from './roll20/players';
import { homeOfId } from './roll20/read';
import { editedToken } from './roll20/visible';
import { send, TO_GM } from './roll20/send';
import { renderLine } from './render/card';
import type { App } from './commands/context';
import { commandWord, dispatch, type CommandTable } from './commands/dispatch';
import { adminCommand } from './commands/admin';
import { damageCommand } from './commands/damage';
import { defendCommand } from './commands/defend';
import { stanceCommand } from './commands/stance';
import { healCommand } from './commands/heal';
import { onAttributeEdit, onTokenChange } from './commands/handEdit';
import { onTokenAdded } from './commands/newToken';
import { initRound, noticeTurnOrder } from './commands/rounds';
import { refreshHelpHandout } from './commands/helpHandout';
import { editionOf } from './rules/editions';
import { chatSetAttr, groupInitiative, tokenMod } from './roll20/otherScripts';
import { DetailsStore } from './commands/details';
import { trimHistory } from './commands/history';
import { healthColorsNotice } from './commands/healthColorsNotice';
import { attackCommand } from './commands/exchange';
import { armAnswerTimeouts } from './commands/exchange/timeout';
import { installConfig, later, logLine, onEvent, savedState, saveState } from './roll20/sandbox';

export const COMMANDS: CommandTable = {
  '!damage': damageCommand,
  '!attack': attackCommand,
  '!defend': defendCommand,
  '!stance': stanceCommand,
  '!heal': healCommand,
  '!defense-round': adminCommand,
};

export function startDefenseRound(): App {
  const firstInstall = savedState(STATE_KEY) === undefined;
  const { stored, problems, newer } = loadState(savedState(STATE_KEY), SCRIPT_VERSION, homeOfId);
  const app: App = { store: stored, attributes: new AttributeIndex(() => app.store.sheetLacks), loadProblems: problems, linkedEdits: new Map(), details: new DetailsStore() };
  if (newer !== undefined) {
    // commands.md, "State from a newer version": left as it is, the GM told once, commands paused.
    app.newerState = newer;
    logLine(`${SCRIPT_NAME} v${SCRIPT_VERSION}: ${problems.join('; ')}`);
    send(TO_GM, renderLine(newerStateNotice(newer)));
  } else {
    adoptState(app, firstInstall);
    // The open attacks' answer time limits go on from `state`: those past theirs resolve at once.
    armAnswerTimeouts(app);
  }
  registerHandlers(app);
  return app;
}

/** Makes the loaded state the script's own: install options, problems said, greeting or handout. */
function adoptState(app: App, firstInstall: boolean): void {
  const stored = app.store;
  const problems = app.loadProblems;
  if (firstInstall) applyInstallOptions(stored.settings, installOptions());
  // The history's limits hold as a whole too, not only entry by entry (commands.md, "Undo, hardened").
  const trimmed = trimHistory(app);
  if (trimmed > 0) problems.push(`history: ${trimmed} entr${trimmed === 1 ? 'y' : 'ies'} over its limits (count, size, each player's 10 entries and bytes, the players' half); dropped`);
  saveState(STATE_KEY, stored);
  if (problems.length > 0) {
    logLine(`${SCRIPT_NAME} v${SCRIPT_VERSION}: stored state had problems, replaced by defaults: ${problems.join('; ')}`);
    send(TO_GM, renderLine(`${SCRIPT_NAME}: some stored settings were unusable and were reset (details in the API log and in !defense-round).`));
  }
  if (firstInstall || stored.scriptVersion === '') {
    // A first install says how to start, once (no look-ups at start-up).
    send(TO_GM, renderLine(`${SCRIPT_NAME} v${SCRIPT_VERSION} is installed: !defense-round shows its settings, !defense-round help makes a help handout.`));
  } else if (stored.scriptVersion !== SCRIPT_VERSION) {
    // An upgrade rebuilds the help handout.
    guarded('rebuilding the help handout', () => refreshHelpHandout(editionOf(stored.settings.edition)))();
  }
  stored.scriptVersion = SCRIPT_VERSION;
}

export function newerStateNotice(schema: number): string {
  return `${SCRIPT_NAME}: the saved state was written by a newer version (schema ${schema}); it is left as it is and commands are paused. Update the script, or discard that state with !defense-round reset-state.`;
}

function registerHandlers(app: App): void {
  const stored = app.store;
  const paused = () => app.newerState !== undefined;
  const lookAtTurnOrder = guarded('following the Turn Tracker', () => {
    if (!paused()) noticeTurnOrder(app);
  });
  onEvent(
    'chat:message',
    guarded(
      (msg: Roll20ChatMessage) => `${String(msg?.content ?? '').split(' ', 1)[0]}`,
      (msg: Roll20ChatMessage) => {
        // Every message of the game comes here; only commands are read.
        if (msg?.type !== 'api') return undefined;
        if (!paused()) {
          // Another script may have turned the Turn Tracker (no event): looked at before each command,
          // and just after any other script's command has run (TurnMarker1's !eot).
          const word = commandWord(msg, COMMANDS);
          if (word === undefined) {
            later(lookAtTurnOrder);
            return undefined;
          }
          noticeTurnOrder(app);
          return dispatch(app, msg, COMMANDS, word);
        }
        return dispatch(app, msg, COMMANDS);
      },
      (msg: Roll20ChatMessage) => (msg?.type === 'api' && msg.playerid ? whisperTarget(msg.playerid) : undefined),
    ),
  );
  const barEdit = guarded('a hand edit of a bar', (token: Roll20Graphic, prev: Record<string, unknown>) => {
    // Bump: an edit typed into a stand-in is its original's.
    if (!paused()) onTokenChange(app, editedToken(token), prev);
  });
  for (const bar of ['bar1', 'bar2', 'bar3']) onEvent(`change:graphic:${bar}_value`, barEdit);
  onEvent(
    'destroy:graphic',
    guarded('forgetting a deleted token', (token: Roll20Graphic) => {
      if (paused()) return;
      delete app.store.tokens[token.id];
      // Its defense made ahead goes with it.
      delete app.store.exchange.waiting[token.id];
    }),
  );
  onEvent(
    'add:graphic',
    guarded('showing a new token its character\'s markers', (token: Roll20Graphic) => {
      if (!paused()) onTokenAdded(app, token);
    }),
  );
  initRound(app);
  // A hand edit: the text before it tells whether the top row's initiative was typed anew.
  onEvent(
    'change:campaign:turnorder',
    guarded('following the Turn Tracker', (_campaign: unknown, prev: unknown) => {
      if (!paused()) noticeTurnOrder(app, typeof prev === 'object' && prev !== null ? ((prev as { turnorder?: unknown }).turnorder ?? '') : '');
    }),
  );
  // GroupInitiative tells its observers when it writes the tracker (a script's write fires no event).
  observeGroupInitiative(lookAtTurnOrder);
  const forgetCharacter = guarded('refreshing attribute look-ups', (attribute: Roll20Attribute) => {
    const told = attributeTold(attribute);
    if (told !== undefined) app.attributes.forget(told.characterId);
  });
  // An attribute that appears (added, or renamed to its name) is one the sheet may be asked for again.
  const attributeAppeared = guarded('refreshing attribute look-ups', (attribute: Roll20Attribute) => {
    const told = attributeTold(attribute);
    if (told === undefined) return;
    app.attributes.forget(told.characterId);
    app.attributes.appeared(told.name);
  });
  onEvent('add:attribute', attributeAppeared);
  onEvent('destroy:attribute', forgetCharacter);
  onEvent('change:attribute:name', attributeAppeared);

  observeTokenMod(barEdit);
  // ChatSetAttr's writes fire no Roll20 events; it tells observers (its README, "Registering observers"):
  // its creations and deletions reach the index as Roll20's add and destroy do, its changes are hand edits.
  const csa = chatSetAttr();
  if (csa && typeof csa.registerObserver === 'function') {
    csa.registerObserver('add', attributeAppeared);
    csa.registerObserver('destroy', forgetCharacter);
    csa.registerObserver('change', guarded('a ChatSetAttr edit', (attribute: Roll20Attribute, prev?: Record<string, unknown>) => {
      if (!paused()) onAttributeEdit(app, attribute, prev);
    }));
  }
  if (!paused()) guarded('checking HealthColors', () => healthColorsNotice(app))();
  logLine(`${SCRIPT_NAME} v${SCRIPT_VERSION} ready: edition ${stored.settings.edition}.`);
}

function installOptions(): Record<string, unknown> | undefined {
  return installConfig(SCRIPT_NAME.toLowerCase());
}

/** GroupInitiative's writes of the Turn Tracker fire no Roll20 events; it tells observers instead. */
function observeGroupInitiative(handler: () => void): void {
  const api = groupInitiative();
  if (api && typeof api.ObserveTurnOrderChange === 'function') api.ObserveTurnOrderChange(handler);
}

/** TokenMod's bar edits fire no Roll20 events; it tells observers instead (commands.md). */
function observeTokenMod(handler: (token: Roll20Graphic, prev: Record<string, unknown>) => void): void {
  const api = tokenMod();
  if (api && typeof api.ObserveTokenChange === 'function') api.ObserveTokenChange(handler);
}

