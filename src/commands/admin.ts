// `!defense-round`: the GM's status card and settings menu, and the GM's maintenance commands.
import { SCRIPT_VERSION } from '../version';
import { API_COMMANDS, ATTRIBUTE_KEYS, DEFAULT_ATTRIBUTES, MARKER_KEYS, type ApiCommands, type AttributeKey } from '../state/settings';
import { send, whisperTo } from '../roll20/send';
import { characterOf, findToken, readToken } from '../roll20/read';
import { controls, isNpc } from '../roll20/players';
import { hiddenFromPlayers } from '../roll20/visible';
import { renderButton, renderCard, renderLine, renderLineWithButtons } from '../render/card';
import { applyConfig, CONFIG_KEYS } from './config';
import { replyResult, tokenRecord, pruneRecord, type App, type CommandContext } from './context';
import type { CommandHandler } from './dispatch';
import { endRound } from './rounds';
import { idsArg, integerArg, RefusalError, UsageError, checkFlags, echo, suggest } from '../text/args';
import { resolveTargets } from './targets';
import { handoutButton, HELP_HANDOUT_NAME, refreshHelpHandout } from './helpHandout';
import { switchEdition } from './editionSwitch';
import { armAnswerTimeouts } from './exchange/timeout';
import { freshState, STATE_KEY } from '../state/store';
import { saveState } from '../roll20/sandbox';
import { withEntry } from '../state/tokens';
import { activeEdition, applyQuietly, describeValueProblems } from './pipeline';
import type { Plan, RuleChange } from '../rules/edition';
import { visibilityOf } from './present';
import { refreshMacros } from './macros';
import { playableEditions } from '../rules/editions';

const USAGE =
  '!defense-round [help | config KEY VALUE | set NAME VALUE|clear | repair | next-round | macros | refresh | reset-state | details KEY] (for the GM, but details, which card buttons send for anyone; set and repair act on the selected tokens or --ids)';

const SUBCOMMAND_HELP: Record<string, { title: string; usage: string; what: string[] }> = {
  help: { title: '!defense-round help', usage: '!defense-round help', what: ['Creates or refreshes the "Help: DefenseRound" handout for the active edition.'] },
  macros: { title: '!defense-round macros', usage: '!defense-round macros', what: ['Creates or refreshes the table\'s macros for the active edition (DR-Attack for one defender, DR-Attack-Group for up to three, DR-Damage, DR-Defend, DR-Stance, DR-Undo, as it uses them): the GM\'s for the GM, the players\' shared with all, token actions where they act on the selection. A macro of the same name made by hand is left as it is; the script\'s own that the edition does not use are removed.'] },
  config: {
    title: '!defense-round config',
    usage: '!defense-round config KEY VALUE',
    what: [`Changes one setting, e.g. edition ${playableEditions()[1] ?? playableEditions()[0]}, vitality-bar bar3, attr.armor_soak soak_pct, marker.dead skull, visibility.npc public, players-target-any on, armor-on-manual-edits on, overwhelm-limit 20, api-commands gm|refuse (whether a command another script relays without a player acts as the GM), answer-timeout 30 (seconds an attack waits for answers; 0: no limit), ping-defenders on.`, `Settings: ${CONFIG_KEYS.join(', ')}.`],
  },
  set: {
    title: '!defense-round set',
    usage: '!defense-round set NAME VALUE|clear [--ids ID ...]',
    what: ['Gives the selected tokens (or --ids) their own value for a character value (e.g. armor_physical 100), winning over the sheet; clear removes it.', `Names: ${ATTRIBUTE_KEYS.join(', ')}.`],
  },
  repair: { title: '!defense-round repair', usage: '!defense-round repair [--ids ID ...]', what: ['Restores the targets\' worn armor protection to its max. Not undoable.'] },
  'next-round': { title: '!defense-round next-round', usage: '!defense-round next-round', what: ['Ends the round by hand: pending defenses and per-round limits end.'] },
  refresh: { title: '!defense-round refresh', usage: '!defense-round refresh', what: ['Forgets cached attribute look-ups (after another script created attributes).'] },
  'reset-state': {
    title: '!defense-round reset-state',
    usage: '!defense-round reset-state',
    what: ['Only when a newer version of DefenseRound wrote the saved state (the script is then paused): discards that state and starts from the defaults.'],
  },
  details: {
    title: '!defense-round details',
    usage: '!defense-round details KEY',
    what: ['What the "details" button of a multi-target card sends: whispers that row\'s full breakdown to whoever may read it. Anyone may click it.'],
  },
};

/** The sub-commands, for a typo's "did you mean". */
const SUBCOMMANDS = Object.keys(SUBCOMMAND_HELP);

function onOff(flag: boolean): string {
  return flag ? 'on' : 'off';
}

/** The answer time limit as the GM reads it. */
function timeLimit(seconds: number): string {
  return seconds === 0 ? 'off' : `${seconds} s`;
}

export function statusCard(app: App): string {
  const s = app.store.settings;
  const edition = activeEdition(app);
  const uses = (key: 'overwhelm-limit' | 'stamina-bar') => edition.table.settings.includes(key);
  const remapped = ATTRIBUTE_KEYS.filter((key) => s.attributes[key] !== DEFAULT_ATTRIBUTES[key]).map(
    (key) => `${key} -> ${s.attributes[key]}`,
  );
  return renderCard({
    title: `DefenseRound v${SCRIPT_VERSION}`,
    rows: [
      { label: 'Edition', lines: [s.edition] },
      {
        label: 'Bars',
        lines: [`Vitality ${s.bars.vitality}, Soul ${s.bars.soul}, Power ${s.bars.power}${uses('stamina-bar') ? `, Stamina ${s.bars.stamina}` : ''}`],
      },
      { label: 'Breakdowns', lines: [`NPCs: ${s.visibility.npc}, PCs: ${s.visibility.pc}`] },
      { label: 'Players target any', lines: [onOff(s.playersTargetAny)] },
      { label: 'Armor on hand edits', lines: [onOff(s.armorOnManualEdits)] },
      { label: 'Relayed commands', lines: [RELAYED_SHOWN[s.apiCommands]] },
      { label: 'Answer time limit', lines: [timeLimit(s.answerTimeout)] },
      { label: 'Ping defenders', lines: [onOff(s.pingDefenders)] },
      { label: 'Overwhelm limit', lines: uses('overwhelm-limit') ? [String(s.overwhelmLimit)] : [] },
      { label: 'Markers', lines: [MARKER_KEYS.filter((key) => edition.table.markers.includes(key)).map((key) => (key === s.markers[key] ? key : `${key}: ${s.markers[key]}`)).join(', ')] },
      { label: 'Attributes', lines: [remapped.length > 0 ? remapped.join(', ') : 'default names'] },
      { label: 'Round', lines: [String(app.store.round.number)] },
      // Roll20 logs an error for each ask of a name the sheet lacks: asked once per game, and said here.
      { label: 'Not on the sheet', lines: sheetLacksLine(app) },
      { label: 'State problems', lines: app.loadProblems },
    ],
  });
}

/** The names that read as nothing because the game's sheet has no such field (escaped with the card). */
function sheetLacksLine(app: App): string[] {
  const names = app.store.sheetLacks;
  if (names.length === 0) return [];
  // Kept names are 100 characters at most; a dozen of them is enough to act on.
  const shown = names.slice(0, 12);
  const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
  return [`${shown.join(', ')}${more}: read as nothing`];
}

/** The status card's words for each api-commands value: who a relayed command acts for. */
const RELAYED_SHOWN: Record<ApiCommands, string> = {
  refuse: 'refuse (--api-as or not)',
  gm: 'gm (act as the GM; --api-as ignored)',
  'api-as': 'api-as (act as the --api-as player, never a GM; otherwise refuse)',
};

function currentFirst(current: string, options: readonly string[]): string {
  return [current, ...options.filter((option) => option !== current)].join('|');
}

function settingsMenu(app: App): string {
  const s = app.store.settings;
  const edition = activeEdition(app);
  const others = playableEditions().filter((id) => id !== s.edition);
  const toggle = (key: string, on: boolean) => renderButton(`${key}: ${onOff(on)}`, `!defense-round config ${key} ${on ? 'off' : 'on'}`);
  const flip = (key: string, value: string) =>
    renderButton(`${key}: ${value}`, `!defense-round config ${key} ${value === 'gm' ? 'public' : 'gm'}`);
  return [
    renderLine('Settings:'),
    flip('visibility.npc', s.visibility.npc),
    flip('visibility.pc', s.visibility.pc),
    toggle('players-target-any', s.playersTargetAny),
    toggle('armor-on-manual-edits', s.armorOnManualEdits),
    // Roll20 pre-selects a query's first option: the current value comes first, so accepting changes nothing.
    renderButton(`api-commands: ${s.apiCommands}`, `!defense-round config api-commands ?{Relayed commands|${currentFirst(s.apiCommands, API_COMMANDS)}}`),
    // The query's default is the current limit: accepting changes nothing.
    renderButton(`answer-timeout: ${timeLimit(s.answerTimeout)}`, `!defense-round config answer-timeout ?{Answer time limit in seconds - 0 is off|${s.answerTimeout}}`),
    toggle('ping-defenders', s.pingDefenders),
    // Roll20 pre-selects a query's first option: the current value comes first, so accepting changes nothing.
    renderButton(`vitality-bar: ${s.bars.vitality}`, `!defense-round config vitality-bar ?{Vitality bar|${currentFirst(s.bars.vitality, ['bar1', 'bar2', 'bar3'])}}`),
    ...others.map((id) => renderButton(`edition: switch to ${id}`, `!defense-round config edition ${id}`)),
    // Only the settings the active edition uses (issue: the settings menu follows the edition).
    ...(edition.table.settings.includes('overwhelm-limit')
      ? [renderButton(`overwhelm-limit: ${s.overwhelmLimit}`, `!defense-round config overwhelm-limit ?{Overwhelm limit|${s.overwhelmLimit}}`)]
      : []),
    ...(edition.table.settings.includes('stamina-bar') ? [renderButton(`stamina-bar: ${s.bars.stamina}`, `!defense-round config stamina-bar ?{Stamina bar|${currentFirst(s.bars.stamina, ['power', 'bar1', 'bar2', 'bar3'])}}`)] : []),
    renderButton('next round', '!defense-round next-round'),
    renderButton('help handout', '!defense-round help'),
    renderButton('table macros', '!defense-round macros'),
  ].join(' ');
}

function setOverride(ctx: CommandContext, args: string[]): void {
  const [name, value] = args;
  if (!name || value === undefined) throw new UsageError('set needs a NAME and a VALUE (or clear)');
  const key = name.toLowerCase() as AttributeKey;
  if (!ATTRIBUTE_KEYS.includes(key)) {
    throw new UsageError(`unknown value name "${echo(name)}": ${suggest(name, ATTRIBUTE_KEYS, 'names')}`);
  }
  const clear = value.toLowerCase() === 'clear';
  const number = clear ? 0 : integerArg(value, `the value of ${key}`, -1000000, 1000000);
  const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed));
  const names: string[] = [];
  for (const { token, character } of targets) {
    const record = tokenRecord(ctx.app, token.id);
    record.overrides = withEntry(record.overrides, key, clear ? null : number);
    // A new protection value starts unworn.
    const track = key === 'armor_physical' ? 'physical' : key === 'armor_magical' ? 'magical' : undefined;
    if (track) record.worn = withEntry(record.worn, track, null);
    pruneRecord(ctx.app, token.id);
    names.push(readToken(token, character, ctx.app.store.settings).name);
  }
  replyResult(ctx, `${clear ? `Cleared ${key} override` : `${key} = ${number}`} on ${names.join(', ')}.${notes.length ? ` (${notes.join('; ')})` : ''}`);
}

const TRACKS = [
  ['physical', 'armor_physical'],
  ['magical', 'armor_magical'],
] as const;

/**
 * `repair`: each protection back to its max, as a plan through the pipeline (read as any plan
 * reads them, worn per token or on the sheet, and written where they were read from).
 */
function repair(ctx: CommandContext): void {
  const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed));
  const said = new Map<string, string[]>();
  const plan: Plan<unknown> = {
    // Both protections and their maxes: one that is not a number refuses the token whole, nothing changed.
    values: TRACKS.map(([, key]) => key),
    maxes: TRACKS.map(([, key]) => key),
    dice: [],
    resolve(facts) {
      const repaired: string[] = [];
      const changes: RuleChange[] = [];
      for (const [track, key] of TRACKS) {
        const value = facts.values[key];
        if (!value?.present) continue;
        const label = track === 'physical' ? 'Physical' : 'Magical';
        const full = value.max;
        if (full === null) {
          repaired.push(`${label} has no max on the sheet: nothing to restore it to`);
          continue;
        }
        // No protection of that kind at all (max 0, nothing worn): nothing to say about it.
        if (full === 0 && (value.current ?? 0) === 0) continue;
        if (value.current === full) {
          repaired.push(`${label} ${full}, already whole`);
          continue;
        }
        changes.push({ kind: 'value', key, to: full });
        repaired.push(`${label} ${value.current ?? 0} -> ${full}`);
      }
      said.set(facts.id, repaired);
      return { headline: 'acts', steps: [], changes, observed: false, detail: { repair: true } };
    },
  };
  const lines = applyQuietly(ctx.app, targets, plan).map((result) => {
    const { snapshot } = result.reading;
    if (result.kind === 'problems') return describeValueProblems(snapshot, result.reading.problems);
    pruneRecord(ctx.app, snapshot.id);
    const repaired = said.get(snapshot.id) ?? [];
    return `${snapshot.name}: ${repaired.length > 0 ? repaired.join(', ') : 'no armor to repair'}`;
  });
  replyResult(ctx, `Repair: ${lines.join('; ')}${notes.length ? ` (${notes.join('; ')})` : ''}`);
}

/** `!defense-round reset-state`: the GM discards a newer version's state; defaults from now on. */
function resetState(app: App): void {
  app.store = freshState(SCRIPT_VERSION);
  app.loadProblems = [];
  delete app.newerState;
  saveState(STATE_KEY, app.store);
}

/** Whispers one row's full breakdown to the clicker: the GM; a player for a token they control or whose breakdowns are public. */
function showDetails(ctx: CommandContext, args: string[]): void {
  const [key, ...extra] = args;
  if (!key || extra.length > 0) throw new UsageError('details needs the key its button gives');
  const detail = ctx.app.details.get(key);
  const gone = 'that breakdown is no longer kept (the script keeps the last few hundred, until a restart)';
  if (!detail) throw new RefusalError(gone);
  const token = findToken(detail.tokenId);
  // Hidden then or now (the GM layer, a page no player is on), a token's breakdown is the GM's whatever the visibility setting.
  const hidden = detail.hidden || (token !== undefined && hiddenFromPlayers(token));
  // An NPC then or now (its players may have been taken away since): its numbers follow visibility.npc.
  const npc = detail.npc || (token !== undefined && isNpc(token, characterOf(token)));
  const isPublic = visibilityOf(ctx.app, { npc, hidden }) === 'public';
  const mayRead = ctx.gm || isPublic || (token !== undefined && controls(ctx.playerId, token, characterOf(token)));
  // A hidden token is answered like a key that holds nothing: a guessed key must not name it.
  if (!mayRead) throw new RefusalError(hidden ? gone : `${detail.name}'s breakdown is for the GM`);
  send(whisperTo(ctx.replyTo), renderCard(detail.card()));
}

export const adminCommand: CommandHandler = {
  usage: () => USAGE,
  help: () => ['For the GM (a card\'s details buttons work for anyone). With no argument: status and a settings menu. Sub-commands: help, config, set, repair, next-round, macros, refresh, reset-state, details (each answers --help).'],
  helpFor: (_app, parsed) => {
    const sub = (parsed.positionals[0] ?? '').toLowerCase();
    return SUBCOMMAND_HELP[sub];
  },
  run(ctx) {
    const [sub, ...args] = ctx.parsed.positionals;
    const subcommand = (sub ?? '').toLowerCase();
    // A multi-target card's details button: anyone may click it; who may read it is checked.
    if (subcommand === 'details') {
      checkFlags(ctx.parsed, {});
      showDetails(ctx, args);
      return;
    }
    if (!ctx.gm) throw new RefusalError('!defense-round is for the GM only');
    const allowIds = subcommand === 'set' || subcommand === 'repair';
    checkFlags(ctx.parsed, allowIds ? { ids: { kind: 'list' } } : {});
    switch (subcommand) {
      case '':
        send(whisperTo('gm'), statusCard(ctx.app));
        send(whisperTo('gm'), settingsMenu(ctx.app));
        return;
      case 'help': {
        refreshHelpHandout(activeEdition(ctx.app));
        const link = handoutButton();
        send(whisperTo(ctx.replyTo), renderLineWithButtons(`The handout "${HELP_HANDOUT_NAME}" is up to date in the journal${link ? ':' : '.'}`, link ? [link] : []));
        return;
      }
      case 'config': {
        const [key, ...rest] = args;
        if (!key) throw new UsageError('config needs a KEY and a VALUE');
        const editionBefore = ctx.app.store.settings.edition;
        const said = applyConfig(ctx.app.store.settings, key, rest.join(' ') || undefined);
        if (ctx.app.store.settings.edition !== editionBefore) {
          replyResult(ctx, switchEdition(ctx, editionBefore, said));
          return;
        }
        replyResult(ctx, said);
        armAnswerTimeouts(ctx.app);
        return;
      }
      case 'set':
        setOverride(ctx, args);
        return;
      case 'repair':
        repair(ctx);
        return;
      case 'next-round':
        endRound(ctx.app);
        return;
      case 'macros':
        refreshMacros(ctx);
        return;
      case 'reset-state':
        if (ctx.app.newerState === undefined) throw new RefusalError('reset-state only discards a state written by a newer version, and this one is not');
        resetState(ctx.app);
        replyResult(ctx, 'The newer version\'s state is discarded: DefenseRound starts from its defaults.');
        return;
      case 'refresh':
        ctx.app.attributes.clear();
        replyResult(ctx, 'Cached attribute look-ups, and the names the sheet lacked, forgotten; they are read again on next use.');
        return;
      default:
        throw new UsageError(`unknown subcommand "${echo(String(sub))}": ${suggest(subcommand, SUBCOMMANDS, 'subcommands')}`);
    }
  },
};
