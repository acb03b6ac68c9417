// What Roll20's chat does to a line before sending it, for the local sandbox: attribute calls
// (@{selected|...}, @{target|Label|...}, @{Character|attr}) and roll queries (?{Question|default},
// ?{Question|Label,value|...}). Inline rolls [[...]] are left to the mock's chat, which rolls them
// after this (Roll20's order: attributes, queries, attributes in the answers, then inline rolls).
import type { MockObject, MockRoll20 } from './roll20.js';

/** Asks the person at the terminal; absent when input is piped (defaults are taken then). */
export interface Prompter {
  /** Resolves to the typed line, or null when the input closed. */
  ask(question: string): Promise<string | null>;
}

export interface MacroEnv {
  mock: MockRoll20;
  /** The selected tokens, first one first (what @{selected|...} reads). */
  selection: readonly MockObject[];
  /** The tokens on the page, in page order. */
  tokens: readonly MockObject[];
  /** Tokens picked with the `target` command, used by this line's @{target|...} labels in order. */
  targetPicks: MockObject[];
  /** Answers given beforehand (click N answers, or the `answer` command), by query in order. */
  answers: string[];
  prompter?: Prompter;
}

export type Expansion =
  | { ok: true; line: string; notes: string[] }
  | { ok: false; error: string; /** The query that had no answer and no default, when that was the problem. */ query?: string };

export interface Query {
  /** The whole `?{...}` text. */
  text: string;
  prompt: string;
  /** A text box's default, or undefined when there is none. */
  fallback?: string;
  /** A drop-down's options. */
  options?: Array<{ label: string; value: string }>;
}

const MAX_PASSES = 10;
/**
 * The longest line the fill-in makes: a sheet field that calls another field several times grows
 * the line at each pass (eleven calls a field, ten passes: 11^10 times), and a typed macro would
 * hang the page. Roll20's own chat refuses a message far shorter than this.
 */
export const MAX_FILLED_LINE = 20_000;

/** True when the line has something Roll20 would fill in before sending. */
export function needsExpansion(line: string): boolean {
  return /@\{[^{}]*\}|\?\{/.test(line);
}

/** The distinct queries of a line, in the order Roll20 asks them (the same question is asked once). */
export function queryPrompts(line: string): string[] {
  return [...new Set(findQueries(line).map((q) => q.prompt))];
}

export async function expandMacro(input: string, env: MacroEnv): Promise<Expansion> {
  const notes: string[] = [];
  const targets = new Map<string, MockObject>();
  const answered = new Map<string, string>();
  let line = input;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const attributes = await resolveAttributes(line, env, targets, notes);
    if (!attributes.ok) return attributes;
    line = attributes.line;
    if (line.length > MAX_FILLED_LINE) return { ok: false, error: `Filling in the attribute calls made the line longer than ${MAX_FILLED_LINE} characters (a sheet field calls others over and over): ${input.slice(0, 80)}` };
    const queries = findQueries(line);
    if (queries.length === 0) return { ok: true, line, notes };
    for (const query of queries) {
      let answer = answered.get(query.prompt);
      if (answer === undefined) {
        const got = await answerQuery(query, env, notes);
        if (!got.ok) return got;
        answer = got.answer;
        answered.set(query.prompt, answer);
      }
      line = line.split(query.text).join(answer);
    }
  }
  return { ok: false, error: `Too many nested queries or attribute calls in: ${input}` };
}

// ---- attribute calls ----

/** What @{target|...} names after "target": the pick's label (Target when none) and what it reads of the token. */
export function targetCall(rest: readonly string[]): { label: string; attr: string[]; max: boolean } {
  const spec = [...rest];
  const max = spec.length >= 2 && spec[spec.length - 1]?.toLowerCase() === 'max';
  if (max) spec.pop();
  return { label: spec.length >= 2 ? spec[0]! : 'Target', attr: spec.length >= 2 ? spec.slice(1) : spec, max };
}

/** Fills in each @{...} of the line; a target label already in `targets` uses that token (else one is picked). */
export async function resolveAttributes(
  line: string,
  env: MacroEnv,
  targets: Map<string, MockObject>,
  notes: string[],
): Promise<{ ok: true; line: string } | { ok: false; error: string }> {
  const calls = [...line.matchAll(/@\{([^{}]*)\}/g)];
  let out = line;
  const done = new Set<string>();
  for (const call of calls) {
    const whole = call[0];
    // Each call is filled in everywhere at once: the same call again has nothing left to fill.
    if (done.has(whole)) continue;
    done.add(whole);
    const parts = (call[1] ?? '').split('|').map((p) => p.trim());
    const head = (parts[0] ?? '').toLowerCase();
    let value: string | { error: string };
    if (head === 'selected') {
      const token = env.selection[0];
      if (!token) return { ok: false, error: `${whole} needs a selected token: select one first (select <token>).` };
      value = tokenAttribute(env.mock, token, parts.slice(1), whole, 'selected');
    } else if (head === 'target') {
      const { label, attr, max } = targetCall(parts.slice(1));
      let token = targets.get(label);
      if (!token) {
        const picked = await pickTarget(label, env, [...targets.values()], notes);
        if (!picked.ok) return picked;
        token = picked.token;
        targets.set(label, token);
      }
      value = tokenAttribute(env.mock, token, max ? [...attr, 'max'] : attr, whole, label);
    } else if (parts.length >= 2) {
      value = characterAttribute(env.mock, parts[0]!, parts.slice(1), whole);
    } else {
      value = { error: `${whole}: in chat an attribute call names its character, e.g. @{selected|${parts[0]}} or @{Bob|${parts[0]}}.` };
    }
    if (typeof value !== 'string') return { ok: false, error: value.error };
    out = out.split(whole).join(value);
    if (out.length > MAX_FILLED_LINE) return { ok: false, error: `Filling in ${whole.slice(0, 60)} made the line longer than ${MAX_FILLED_LINE} characters (a sheet field calls others over and over).` };
  }
  return { ok: true, line: out };
}

function tokenAttribute(mock: MockRoll20, token: MockObject, spec: string[], whole: string, who: string): string | { error: string } {
  const [name = '', which = ''] = spec;
  const max = which.toLowerCase() === 'max';
  const key = name.toLowerCase();
  if (key === '') return { error: `${whole}: name what to read, e.g. @{${who}|token_id}.` };
  if (key === 'token_id') return token.id;
  if (key === 'token_name') return String(token.get('name'));
  if (/^bar[123]$/.test(key)) return String(token.get(`${key}_${max ? 'max' : 'value'}`));
  const characterId = String(token.get('represents') ?? '');
  const character = characterId === '' ? undefined : (mock.globals.getObj('character', characterId) as MockObject | undefined);
  if (!character) return { error: `No character was found for '${who}': ${String(token.get('name'))} represents no character, so ${whole} has nothing to read.` };
  if (key === 'character_id') return character.id;
  if (key === 'character_name') return String(character.get('name'));
  return readAttribute(mock, character, name, max, whole);
}

function characterAttribute(mock: MockRoll20, characterName: string, spec: string[], whole: string): string | { error: string } {
  const characters = mock.globals.findObjs({ _type: 'character' }) as unknown as MockObject[];
  const character =
    characters.find((c) => c.get('name') === characterName) ??
    characters.find((c) => String(c.get('name')).toLowerCase() === characterName.toLowerCase());
  if (!character) return { error: `No character was found for '${characterName}' (${whole}).` };
  const [name = '', which = ''] = spec;
  if (name.toLowerCase() === 'character_id') return character.id;
  if (name.toLowerCase() === 'character_name') return String(character.get('name'));
  return readAttribute(mock, character, name, which.toLowerCase() === 'max', whole);
}

function readAttribute(mock: MockRoll20, character: MockObject, name: string, max: boolean, whole: string): string | { error: string } {
  const attributes = mock.globals.findObjs({ _type: 'attribute', _characterid: character.id }) as unknown as MockObject[];
  const attribute = attributes.find((a) => String(a.get('name')).toLowerCase() === name.toLowerCase());
  if (!attribute) return { error: `No attribute was found for ${whole}: ${String(character.get('name'))} has no attribute "${name}".` };
  return String(attribute.get(max ? 'max' : 'current'));
}

async function pickTarget(
  label: string,
  env: MacroEnv,
  taken: MockObject[],
  notes: string[],
): Promise<{ ok: true; token: MockObject } | { ok: false; error: string }> {
  const live = env.tokens.filter((t) => !t.removed);
  if (live.length === 0) return { ok: false, error: `@{target|${label}|...} needs a token, and there is none on the page.` };
  const queued = env.targetPicks.shift();
  if (queued) {
    notes.push(`(target "${label}" -> ${String(queued.get('name'))})`);
    return { ok: true, token: queued };
  }
  const fallback = live.find((t) => !env.selection.includes(t) && !taken.includes(t)) ?? live[0]!;
  if (env.prompter) {
    const names = live.map((t, i) => `${i + 1} ${String(t.get('name'))}`).join(', ');
    let retry = '';
    for (;;) {
      const typed = await env.prompter.ask(`${retry}Pick "${label}" (${names}) [${String(fallback.get('name'))}]: `);
      if (typed === null) return { ok: false, error: `No token picked for "${label}".` };
      const text = typed.trim();
      if (text === '') return { ok: true, token: fallback };
      const token = tokenByAnswer(live, text);
      if (token) return { ok: true, token };
      retry = `No token "${text}" on the page. `;
    }
  }
  notes.push(
    `(target "${label}" -> ${String(fallback.get('name'))}: the first token not selected; put "target <token>" before the line to pick another)`,
  );
  return { ok: true, token: fallback };
}

function tokenByAnswer(tokens: MockObject[], text: string): MockObject | undefined {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= tokens.length) return tokens[n - 1];
  return tokens.find((t) => t.get('name') === text) ?? tokens.find((t) => String(t.get('name')).toLowerCase() === text.toLowerCase());
}

// ---- roll queries ----

// Roll20 ends a query at its first "}" and splits it on "|" and ","; a query nested in an option
// is written with those three characters as HTML escapes (&#125; &#124; &#44;).
export function findQueries(line: string): Query[] {
  const found: Query[] = [];
  let from = 0;
  for (;;) {
    const start = line.indexOf('?{', from);
    if (start < 0) return found;
    const end = line.indexOf('}', start);
    if (end < 0) return found; // unclosed: Roll20 sends it as typed
    found.push(parseQuery(line.slice(start, end + 1)));
    from = end + 1;
  }
}

function parseQuery(text: string): Query {
  const parts = text.slice(2, -1).split('|');
  const prompt = (parts[0] ?? '').trim();
  if (parts.length <= 1) return { text, prompt };
  if (parts.length === 2) return { text, prompt, fallback: parts[1]! };
  const options = parts.slice(1).map((option) => {
    const comma = option.indexOf(',');
    return comma < 0 ? { label: option.trim(), value: option } : { label: option.slice(0, comma).trim(), value: option.slice(comma + 1) };
  });
  return { text, prompt, fallback: options[0]?.value ?? '', options };
}

// Roll20's nested-query escapes turn back into the characters once an option is chosen.
export function unescapeChosen(value: string): string {
  return value.replace(/&#(124|44|125|123|64|63);/g, (_all, code: string) => String.fromCharCode(Number(code)));
}

function fromOptions(query: Query, text: string): string | undefined {
  if (!query.options) return undefined;
  const n = Number(text);
  if (Number.isInteger(n) && String(n) === text && n >= 1 && n <= query.options.length) return query.options[n - 1]!.value;
  const lower = text.toLowerCase();
  return (
    query.options.find((o) => o.value === text)?.value ??
    query.options.find((o) => o.label.toLowerCase() === lower || o.value.trim().toLowerCase() === lower)?.value
  );
}

async function answerQuery(query: Query, env: MacroEnv, notes: string[]): Promise<{ ok: true; answer: string } | { ok: false; error: string; query: string }> {
  const given = env.answers.shift();
  if (given !== undefined) {
    const answer = fromOptions(query, given.trim()) ?? given;
    return { ok: true, answer: query.options ? unescapeChosen(answer) : answer };
  }
  if (env.prompter) {
    const choices = query.options ? ` (${query.options.map((o, i) => `${i + 1} ${o.label}`).join(', ')})` : '';
    const shown = query.options ? query.options[0]?.label : query.fallback;
    let retry = '';
    for (;;) {
      const typed = await env.prompter.ask(`${retry}?{${query.prompt}}${choices}${shown !== undefined ? ` [${shown}]` : ''}: `);
      if (typed === null) return { ok: false, error: `Query "${query.prompt}" not answered.`, query: query.prompt };
      const text = typed.trim();
      if (text === '') return { ok: true, answer: unescapeChosen(query.fallback ?? '') };
      if (!query.options) return { ok: true, answer: typed };
      const chosen = fromOptions(query, text);
      if (chosen !== undefined) return { ok: true, answer: unescapeChosen(chosen) };
      retry = `"${text}" is not one of the choices. `;
    }
  }
  if (query.fallback === undefined) {
    return {
      ok: false,
      query: query.prompt,
      error: `The line asks "${query.prompt}" and gives no default: put "answer <value>" before it (several queries: answers separated by |).`,
    };
  }
  const chosen = unescapeChosen(query.fallback);
  const label = query.options?.[0]?.label;
  const choices = query.options ? `; choices: ${query.options.map((o) => o.value.trim()).join(', ')}` : '';
  notes.push(`(query "${query.prompt}" -> default ${chosen}${label !== undefined && label.toLowerCase() !== chosen.trim().toLowerCase() ? ` (${label})` : ''}${choices})`);
  return { ok: true, answer: chosen };
}
