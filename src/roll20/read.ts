// Reading the game: one snapshot per token per command (each property read once), and the
// character values the rules need, looked up through the per-character attribute index.
import { readInteger } from '../rules/values';
import type { AttributeKey, BarName, Settings } from '../state/settings';
import type { TokenRecord } from '../state/tokens';
import type { AttributeIndex } from './attributes';
import { isNpc } from './players';

export type Resource = 'vitality' | 'soul' | 'power';
export const RESOURCES: readonly Resource[] = ['vitality', 'soul', 'power'];

export interface BarReading {
  bar: BarName;
  /** The value as Roll20 holds it. */
  raw: unknown;
  /** The value as an integer, or null when the bar holds no integer. */
  value: number | null;
  max: number | null;
  /** The id of the linked attribute, or "". */
  link: string;
}

export interface TokenSnapshot {
  id: string;
  token: Roll20Graphic;
  name: string;
  character: Roll20Character | undefined;
  bars: Record<Resource, BarReading>;
  /** A token whose Vitality bar is linked is a unique character (rules.md). */
  unique: boolean;
  npc: boolean;
  statusmarkers: string;
}

export function characterOf(token: Roll20Graphic): Roll20Character | undefined {
  const id = String(token.get('represents') ?? '');
  return id ? getObj('character', id) : undefined;
}

export function readToken(token: Roll20Graphic, character: Roll20Character | undefined, settings: Settings): TokenSnapshot {
  const readBar = (bar: BarName): BarReading => {
    const raw = token.get(`${bar}_value`);
    return {
      bar,
      raw,
      value: readInteger(raw),
      max: readInteger(token.get(`${bar}_max`)),
      link: String(token.get(`${bar}_link`) ?? ''),
    };
  };
  const bars = {
    vitality: readBar(settings.bars.vitality),
    soul: readBar(settings.bars.soul),
    power: readBar(settings.bars.power),
  };
  return {
    id: token.id,
    token,
    name: String(token.get('name') ?? '') || String(character?.get('name') ?? '') || 'unnamed token',
    character,
    bars,
    unique: bars.vitality.link !== '',
    npc: isNpc(token, character),
    statusmarkers: String(token.get('statusmarkers') ?? ''),
  };
}

export interface CharacterValue {
  /** Current value as an integer; null when missing or not a number. */
  current: number | null;
  max: number | null;
  /** True when a per-token override or an attribute supplied the value. */
  present: boolean;
  source: 'override' | 'attribute' | 'none';
  attribute?: Roll20Attribute;
}

const NONE: CharacterValue = { current: null, max: null, present: false, source: 'none' };

/** Reads one character value: a per-token override wins over the character's attribute. */
export function readValue(
  snapshot: TokenSnapshot,
  key: AttributeKey,
  record: TokenRecord | undefined,
  settings: Settings,
  attributes: AttributeIndex,
): CharacterValue {
  const override = record?.overrides?.[key];
  if (override !== undefined) return { current: override, max: override, present: true, source: 'override' };
  if (!snapshot.character) return NONE;
  const attribute = attributes.find(snapshot.character.id, settings.attributes[key]);
  if (!attribute) return NONE;
  return {
    current: readInteger(attribute.get('current')),
    max: readInteger(attribute.get('max')),
    present: true,
    source: 'attribute',
    attribute,
  };
}
