// The GM's settings: their schema, their defaults, and how a stored copy is checked field by field.
import * as v from 'valibot';
import { objectSchema } from '../rules/schemaObject';
import { VALUE_KEYS, type EditionId, type ValueKey } from '../rules/edition';
import { DEFAULT_EDITION, isEditionId } from '../rules/editions';
import { cutWhole } from '../text/cut';

export type Edition = EditionId;
/** An edition id the registry knows (checked when read, so an edition registered later is one too). */
export const editionIdSchema = v.custom<EditionId>(isEditionId, 'not an edition this script has');

export const BAR_NAMES = ['bar1', 'bar2', 'bar3'] as const;
export type BarName = (typeof BAR_NAMES)[number];

/** Each character value is read by default from the attribute of its own name. */
export const DEFAULT_ATTRIBUTES = Object.fromEntries(VALUE_KEYS.map((key) => [key, key])) as { readonly [K in ValueKey]: K };
export type AttributeKey = ValueKey;
export const ATTRIBUTE_KEYS: AttributeKey[] = [...VALUE_KEYS];

export const DEFAULT_MARKERS = {
  incapacitated: 'sleepy',
  dying: 'death-zone',
  dead: 'dead',
  defensive: 'bolt-shield',
  reactive: 'fist',
  active: 'overdrive',
  full: 'strong',
} as const;
export type MarkerKey = keyof typeof DEFAULT_MARKERS;
export const MARKER_KEYS = Object.keys(DEFAULT_MARKERS) as MarkerKey[];

const attributeName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100));
const markerName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100), v.regex(/^[^,]+$/));
const bar = v.picklist(BAR_NAMES);
const visibility = v.picklist(['gm', 'public'] as const);

/**
 * What a command relayed by another script (playerid "API") may do: nothing, act as the GM, or act
 * for the player its `--api-as` names (a relay can carry any player's text, so only the GM can say
 * that a named player is the sender). A picklist value added here needs no migration: old states hold `refuse` or `gm`.
 */
export const API_COMMANDS = ['refuse', 'gm', 'api-as'] as const;
export type ApiCommands = (typeof API_COMMANDS)[number];

/** commands.md, "!attack": the longest answer time limit, in seconds (an hour: past that, the GM settles it). */
export const MAX_ANSWER_TIMEOUT = 3600;

export const SettingsSchema = objectSchema({
  edition: editionIdSchema,
  bars: objectSchema({
    vitality: bar,
    soul: bar,
    power: bar,
    // Opposed Rolls ruling: stamina is the Power bar unless the GM maps it elsewhere
    stamina: v.picklist(['power', ...BAR_NAMES] as const),
  }),
  attributes: objectSchema(
    Object.fromEntries(ATTRIBUTE_KEYS.map((key) => [key, attributeName])) as Record<AttributeKey, typeof attributeName>,
  ),
  markers: objectSchema(
    Object.fromEntries(MARKER_KEYS.map((key) => [key, markerName])) as Record<MarkerKey, typeof markerName>,
  ),
  visibility: objectSchema({ npc: visibility, pc: visibility }),
  playersTargetAny: v.boolean(),
  armorOnManualEdits: v.boolean(),
  overwhelmLimit: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)),
  // commands.md, "Commands relayed by other scripts": a relay is the GM's, or the --api-as player's, only when the GM says so.
  apiCommands: v.picklist(API_COMMANDS),
  // commands.md, "!attack": seconds an attack waits for its answers before it resolves by itself (0: no limit).
  answerTimeout: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_ANSWER_TIMEOUT)),
  // A prompted defender's token is pinged for its controllers.
  pingDefenders: v.boolean(),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export function defaultSettings(): Settings {
  return {
    edition: DEFAULT_EDITION,
    bars: { vitality: 'bar1', soul: 'bar2', power: 'bar3', stamina: 'power' },
    attributes: { ...DEFAULT_ATTRIBUTES },
    markers: { ...DEFAULT_MARKERS },
    visibility: { npc: 'gm', pc: 'public' },
    playersTargetAny: false,
    armorOnManualEdits: false,
    overwhelmLimit: 20,
    apiCommands: 'refuse',
    answerTimeout: 0,
    pingDefenders: false,
  };
}

/**
 * Checks stored settings one field at a time: a field that fails its check is replaced by its
 * default and named in `problems`, so one bad value never resets the others.
 */
export function checkSettings(stored: unknown): { settings: Settings; problems: string[] } {
  const defaults = defaultSettings();
  const problems: string[] = [];
  if (!isRecord(stored)) {
    return { settings: defaults, problems: ['settings: not an object; all settings reset to defaults'] };
  }
  const merged = checkGroup(SettingsSchema.entries, stored, defaults as unknown as Record<string, unknown>, 'settings.', problems);
  // Mapping two resources to one bar is refused when configured; a stored clash means tampering.
  const result = merged as unknown as Settings;
  const { vitality, soul, power } = result.bars;
  if (new Set([vitality, soul, power]).size !== 3) {
    problems.push('settings.bars: two resources share one bar; bar mapping reset to defaults');
    result.bars = { ...defaults.bars };
  }
  return { settings: result, problems };
}

function checkGroup(
  entries: Record<string, v.GenericSchema>,
  stored: Record<string, unknown>,
  defaults: Record<string, unknown>,
  path: string,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(entries)) {
    const name = path + key;
    const value = stored[key];
    const fallback = defaults[key];
    if (value === undefined) {
      out[key] = structuredCopy(fallback);
      continue;
    }
    if (schema.type === 'object' && 'entries' in schema && isRecord(fallback)) {
      if (!isRecord(value)) {
        problems.push(`${name}: not an object; reset to defaults`);
        out[key] = structuredCopy(fallback);
      } else {
        const inner = (schema as unknown as { entries: Record<string, v.GenericSchema> }).entries;
        out[key] = checkGroup(inner, value, fallback, `${name}.`, problems);
      }
      continue;
    }
    const parsed = v.safeParse(schema, value);
    if (parsed.success) {
      out[key] = parsed.output;
    } else {
      problems.push(`${name}: ${describeValue(value)} is not valid; reset to ${JSON.stringify(fallback)}`);
      out[key] = structuredCopy(fallback);
    }
  }
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function structuredCopy<T>(value: T): T {
  return isRecord(value) ? (JSON.parse(JSON.stringify(value)) as T) : value;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${cutWhole(text, 37)}...` : text;
}
