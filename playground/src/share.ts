// A fight as data: the scene, the dice seed and every step taken, so replaying the steps on a
// fresh table gives the same fight. It travels in the URL fragment ("#fight=..."), base64url of
// JSON, and a link is untrusted input: it is validated before anything runs.
import * as v from 'valibot';

export const SCENES = ['demo'] as const;
export type SceneId = (typeof SCENES)[number];

export const BAR_KEYS = ['bar1_value', 'bar1_max', 'bar2_value', 'bar2_max', 'bar3_value', 'bar3_max'] as const;
export type BarKey = (typeof BAR_KEYS)[number];

const MAX_STEPS = 500;
const Name = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Value = v.pipe(v.string(), v.maxLength(100));

const SayStep = v.strictObject({
  k: v.literal('say'),
  /** The player who speaks, by display name. */
  as: Name,
  /** The selected tokens, by name. */
  sel: v.pipe(v.array(Name), v.maxLength(20)),
  line: v.pipe(v.string(), v.minLength(1), v.maxLength(4000)),
});
const EditStep = v.strictObject({
  k: v.literal('edit'),
  token: Name,
  set: v.pipe(
    v.record(v.picklist(BAR_KEYS), Value),
    v.check((set) => Object.keys(set).length > 0, 'an edit changes something'),
  ),
});
const SheetStep = v.strictObject({
  k: v.literal('sheet'),
  char: Name,
  attr: Name,
  current: v.optional(Value),
  max: v.optional(Value),
});
const NextStep = v.strictObject({ k: v.literal('next') });

const StepSchema = v.variant('k', [SayStep, EditStep, SheetStep, NextStep]);
export type Step = v.InferOutput<typeof StepSchema>;
export type SayStep = v.InferOutput<typeof SayStep>;
export type EditStep = v.InferOutput<typeof EditStep>;
export type SheetStep = v.InferOutput<typeof SheetStep>;

const SpecSchema = v.strictObject({
  v: v.literal(1),
  scene: v.picklist(SCENES),
  seed: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 31 - 1)),
  steps: v.pipe(v.array(StepSchema), v.maxLength(MAX_STEPS)),
  /** Who was speaking and what was selected when the link was made. */
  as: v.optional(Name),
  sel: v.optional(v.pipe(v.array(Name), v.maxLength(20))),
});
export type FightSpec = v.InferOutput<typeof SpecSchema>;

export const FRAGMENT_KEY = 'fight';

export function emptySpec(): FightSpec {
  return { v: 1, scene: 'demo', seed: 1, steps: [] };
}

export function encodeSpec(spec: FightSpec): string {
  const bytes = new TextEncoder().encode(JSON.stringify(spec));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export type Decoded = { ok: true; spec: FightSpec } | { ok: false; error: string };

export function decodeSpec(text: string): Decoded {
  let json: unknown;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, error: 'the link is damaged: its fight cannot be read' };
  }
  const parsed = v.safeParse(SpecSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    return { ok: false, error: `the link's fight is not valid${where ? ` at ${where}` : ''}: ${issue?.message ?? 'unknown problem'}` };
  }
  return { ok: true, spec: parsed.output };
}

/** The fragment of a page address: "#fight=..." for a fight, or nothing for a fresh table. */
export function fragmentOf(spec: FightSpec): string {
  const bare = spec.steps.length === 0 && spec.as === undefined && (spec.sel ?? []).length === 0 && spec.seed === 1;
  return bare ? '' : `#${FRAGMENT_KEY}=${encodeSpec(spec)}`;
}

/** Reads a fragment; no fight in it is a fresh table. */
export function specFromFragment(hash: string): Decoded {
  const text = hash.replace(/^#/, '');
  if (text === '') return { ok: true, spec: emptySpec() };
  const match = new RegExp(`^${FRAGMENT_KEY}=([A-Za-z0-9_-]*)$`).exec(text);
  if (!match) return { ok: false, error: 'the link holds no fight the playground knows' };
  return decodeSpec(match[1] ?? '');
}
