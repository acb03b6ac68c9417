// `!defense-round config KEY VALUE`: one setting at a time, each checked, named back to the GM.
import {
  API_COMMANDS,
  ATTRIBUTE_KEYS,
  BAR_NAMES,
  MARKER_KEYS,
  MAX_ANSWER_TIMEOUT,
  type ApiCommands,
  type AttributeKey,
  type BarName,
  type MarkerKey,
  type Settings,
} from '../state/settings';
import { choiceArg, integerArg, suggest, UsageError, echo } from '../text/args';
import { markerTags } from '../roll20/markerNames';
import { shortList } from './refusals';
import { editionIds, playableEditions } from '../rules/editions';


const ON_OFF = ['on', 'off'] as const;
const RESOURCE_BARS = { 'vitality-bar': 'vitality', 'soul-bar': 'soul', 'power-bar': 'power' } as const;

export const CONFIG_KEYS: readonly string[] = [
  'edition',
  ...Object.keys(RESOURCE_BARS),
  'stamina-bar',
  ...ATTRIBUTE_KEYS.map((key) => `attr.${key}`),
  ...MARKER_KEYS.map((key) => `marker.${key}`),
  'visibility.npc',
  'visibility.pc',
  'players-target-any',
  'armor-on-manual-edits',
  'overwhelm-limit',
  'api-commands',
  'answer-timeout',
  'ping-defenders',
];

/** What the GM is told for each api-commands value: what a relayed command now does, and when that is safe. */
const API_COMMANDS_SAID: Record<ApiCommands, string> = {
  refuse: 'Commands relayed by other scripts are now refused, --api-as or not: a relay can carry any player\'s text.',
  gm: 'Commands relayed by other scripts now act as the GM (--api-as is ignored): allow this only if no player can make another script relay a command (ScriptCards relays any player\'s --@ line).',
  'api-as': 'Commands relayed by other scripts now act for the player --api-as PLAYERID names, with that player\'s rights (never a GM\'s); without it they are refused. Allow this only if no player can make another script relay text (ScriptCards relays any player\'s --@ line).',
};

/** Applies one setting and returns what to tell the GM. Throws UsageError for bad keys or values. */
export function applyConfig(settings: Settings, key: string, value: string | undefined): string {
  const lowerKey = key.toLowerCase();
  if (value === undefined || value === '') throw new UsageError(`config ${lowerKey} needs a value`);
  if (lowerKey === 'edition') {
    const edition = choiceArg(value, 'edition', editionIds());
    // Editions not yet built are refused by name (the registry says which are playable).
    const playable = playableEditions();
    if (!playable.includes(edition)) {
      throw new UsageError(`the ${edition} edition is not available in this version yet (playable: ${playable.join(', ')})`);
    }
    settings.edition = edition;
    return `Edition is now ${edition}.`;
  }
  if (lowerKey in RESOURCE_BARS) {
    const resource = RESOURCE_BARS[lowerKey as keyof typeof RESOURCE_BARS];
    const bar = choiceArg(value, lowerKey, BAR_NAMES);
    const previous = settings.bars[resource];
    // Mapping two resources to one bar swaps them (commands.md).
    for (const other of ['vitality', 'soul', 'power'] as const) {
      if (other !== resource && settings.bars[other] === bar) settings.bars[other] = previous;
    }
    settings.bars[resource] = bar;
    if (settings.bars.stamina === settings.bars.vitality) settings.bars.stamina = 'power';
    return `Bars: Vitality ${settings.bars.vitality}, Soul ${settings.bars.soul}, Power ${settings.bars.power}.`;
  }
  if (lowerKey === 'stamina-bar') {
    const bar = choiceArg(value, lowerKey, ['power', ...BAR_NAMES] as const);
    if (bar === settings.bars.vitality) throw new UsageError(`stamina may not share the Vitality bar (${bar})`);
    settings.bars.stamina = bar as BarName | 'power';
    return `Stamina is now ${bar === 'power' ? 'the Power bar' : bar}.`;
  }
  if (lowerKey.startsWith('attr.')) {
    const attributeKey = lowerKey.slice(5);
    if (!(ATTRIBUTE_KEYS as string[]).includes(attributeKey)) {
      throw new UsageError(`unknown attribute key "${echo(attributeKey)}": ${suggest(attributeKey, ATTRIBUTE_KEYS, 'keys')}`);
    }
    const name = value.trim();
    if (name.length === 0 || name.length > 100) throw new UsageError('an attribute name must be 1 to 100 characters');
    settings.attributes[attributeKey as AttributeKey] = name;
    return `The ${attributeKey} value is now read from the attribute "${name}".`;
  }
  if (lowerKey.startsWith('marker.')) {
    const markerKey = lowerKey.slice(7);
    if (!(MARKER_KEYS as string[]).includes(markerKey)) {
      throw new UsageError(`unknown marker key "${echo(markerKey)}": ${suggest(markerKey, MARKER_KEYS, 'keys')}`);
    }
    const typed = value.trim();
    // The name Roll20's menu shows is taken too; the tag (what a token holds) is kept.
    const tags = markerTags(typed);
    if (tags.length === 0) throw new UsageError(`"${echo(typed)}" is neither a Roll20 status marker nor the name or tag of one of this campaign's token markers`);
    if (tags.length > 1) throw new UsageError(`${tags.length} of this campaign's token markers are named "${echo(typed)}": give the tag of one (${shortList(tags.map((tag) => echo(tag)), 3)})`);
    const marker = tags[0]!;
    settings.markers[markerKey as MarkerKey] = marker;
    return `The ${markerKey} marker is now ${marker === typed ? marker : `${typed} (${marker})`}.`;
  }
  if (lowerKey === 'visibility.npc' || lowerKey === 'visibility.pc') {
    const who = lowerKey === 'visibility.npc' ? 'npc' : 'pc';
    settings.visibility[who] = choiceArg(value, lowerKey, ['gm', 'public'] as const);
    return `Full breakdowns for ${who === 'npc' ? 'NPCs' : 'PCs'} now go to ${settings.visibility[who] === 'gm' ? 'the GM only' : 'everyone'}.`;
  }
  if (lowerKey === 'players-target-any') {
    settings.playersTargetAny = choiceArg(value, lowerKey, ON_OFF) === 'on';
    return `Players ${settings.playersTargetAny ? 'may now' : 'may no longer'} apply !damage to tokens they do not control.`;
  }
  if (lowerKey === 'armor-on-manual-edits') {
    settings.armorOnManualEdits = choiceArg(value, lowerKey, ON_OFF) === 'on';
    return `Hand edits that lower Vitality ${settings.armorOnManualEdits ? 'now go' : 'no longer go'} through armor.`;
  }
  if (lowerKey === 'overwhelm-limit') {
    settings.overwhelmLimit = integerArg(value, 'overwhelm-limit', 0, 1000);
    return `Overwhelm limit is now ${settings.overwhelmLimit}.`;
  }
  if (lowerKey === 'api-commands') {
    settings.apiCommands = choiceArg(value, lowerKey, API_COMMANDS);
    return API_COMMANDS_SAID[settings.apiCommands];
  }
  if (lowerKey === 'answer-timeout') {
    const seconds = (settings.answerTimeout = integerArg(value, 'answer-timeout (seconds, 0: off)', 0, MAX_ANSWER_TIMEOUT));
    return seconds === 0 ? 'Attacks now wait for answers with no time limit.' : `An attack still waiting ${seconds} s after its declaration now resolves as Resolve now would.`;
  }
  if (lowerKey === 'ping-defenders') {
    settings.pingDefenders = choiceArg(value, lowerKey, ON_OFF) === 'on';
    return `Prompted defenders are ${settings.pingDefenders ? 'now' : 'no longer'} pinged for their players.`;
  }
  throw new UsageError(`unknown setting "${echo(key)}": ${suggest(key, CONFIG_KEYS, 'settings')}`);
}
