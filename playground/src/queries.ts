// What Roll20 asks before it sends a line, typed or a button's command: ?{Prompt}, ?{Prompt|default}
// (a text box), ?{Prompt|a|b|Label,value} (a drop-down), each prompt asked once; @{target|Label|token_id}
// (a token to click). The page asks in a dialog, then fills the answers in (fillLine), with the
// attribute calls (@{selected|...}, @{Character|attr}) read as the terminal sandbox reads them.
import { findQueries, needsExpansion, resolveAttributes, targetCall, unescapeChosen, type MacroEnv } from '../../mocks/cli-macro.js';
import type { MockObject, MockRoll20 } from '../../mocks/roll20.js';

export type Question =
  | { kind: 'text'; prompt: string; fallback: string }
  | { kind: 'choice'; prompt: string; options: Array<{ label: string; value: string }> }
  /** A token to pick; `fallback` is the token id the choice starts on. */
  | { kind: 'target'; prompt: string; fallback?: string };

const QUERY = /\?\{([^}|]*)((?:\|[^}]*)?)\}/g;
const TARGET = /@\{target\|(?:([^|}]*)\|)?token_(id|name)\}/g;

export function questionsOf(command: string): Question[] {
  const questions: Question[] = [];
  const seen = new Set<string>();
  for (const match of command.matchAll(QUERY)) {
    const prompt = (match[1] ?? '').trim();
    if (seen.has(`q:${prompt}`)) continue;
    seen.add(`q:${prompt}`);
    const options = (match[2] ?? '').split('|').slice(1);
    if (options.length <= 1) questions.push({ kind: 'text', prompt, fallback: options[0] ?? '' });
    else {
      questions.push({
        kind: 'choice',
        prompt,
        options: options.map((option) => {
          const comma = option.indexOf(',');
          return comma < 0 ? { label: option, value: option } : { label: option.slice(0, comma), value: option.slice(comma + 1) };
        }),
      });
    }
  }
  for (const match of command.matchAll(TARGET)) {
    const prompt = (match[1] ?? 'Target').trim() || 'Target';
    if (seen.has(`t:${prompt}`)) continue;
    seen.add(`t:${prompt}`);
    questions.push({ kind: 'target', prompt });
  }
  return questions;
}

/** Fills each question's answer in: a query's text, a target's token id or name. */
export function answer(command: string, answers: ReadonlyMap<string, string>, tokenName: (id: string) => string = (id) => id): string {
  return command
    .replace(QUERY, (all, prompt: string) => answers.get(`q:${prompt.trim()}`) ?? all)
    .replace(TARGET, (all, label: string | undefined, what: string) => {
      const id = answers.get(`t:${(label ?? 'Target').trim() || 'Target'}`);
      if (id === undefined) return all;
      return what === 'id' ? id : tokenName(id);
    });
}

export function keyOf(question: Question): string {
  return `${question.kind === 'target' ? 't' : 'q'}:${question.prompt}`;
}

// ---- a line as Roll20's chat fills it in before sending ------------------------------------------

/** What a line reads from: the table, the selected tokens (first one first) and the tokens on the page. */
export interface LineEnv {
  mock: MockRoll20;
  selection: readonly MockObject[];
  tokens: readonly MockObject[];
}

/** Asks the questions (all at once); the answers by keyOf, a target's as a token id; undefined when cancelled. */
export type Asker = (questions: Question[]) => Promise<ReadonlyMap<string, string> | undefined>;

export type Filled =
  | { ok: true; line: string }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; error: string };

const MAX_PASSES = 10;
const TARGET_CALL = /(@\{\s*target\s*(?:\|[^{}]*)?\})/i;

/**
 * Fills a line in as Roll20 does when it is typed or a button sends it: attribute calls
 * (@{selected|...}, @{Character|attr}), then the questions, asked together (each @{target|Label|...}
 * label and each ?{...} prompt once), then the target calls and the answers; an answer's own
 * attribute calls and queries are filled in after it. The inline rolls are left to the chat.
 * The attribute calls and queries are read as mocks/cli-macro.ts reads them for the terminal.
 */
export async function fillLine(input: string, env: LineEnv, ask: Asker): Promise<Filled> {
  if (!needsExpansion(input)) return { ok: true, line: input };
  const macroEnv: MacroEnv = { mock: env.mock, selection: env.selection, tokens: env.tokens, targetPicks: [], answers: [] };
  const notes: string[] = [];
  const picked = new Map<string, MockObject>();
  const answered = new Map<string, string>();
  const fail = (error: string): Filled => ({ ok: false, cancelled: false, error });
  let line = input;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    // 1. Attribute calls other than @{target|...}, which wait for their pick.
    const selected = /@\{\s*selected\s*(?:\|[^{}]*)?\}/i.exec(line);
    if (selected && env.selection.length === 0) {
      return fail(`${selected[0]} reads the selected token, and none is selected: click a token (its card or on the map) to select it, then send again.`);
    }
    const pieces = line.split(TARGET_CALL);
    for (let i = 0; i < pieces.length; i += 2) {
      const resolved = await resolveAttributes(pieces[i] ?? '', macroEnv, new Map(), notes);
      if (!resolved.ok) return fail(resolved.error);
      pieces[i] = resolved.line;
    }
    line = pieces.join('');
    // 2. The questions not answered yet: the targets, then the queries, in the line's order.
    const questions: Question[] = [];
    const asked = new Set<string>();
    const taken: string[] = [];
    for (const label of targetLabels(line)) {
      const question: Question = { kind: 'target', prompt: label, fallback: defaultTarget(env, [...taken, ...[...picked.values()].map((t) => t.id)]) };
      if (picked.has(label) || asked.has(keyOf(question))) continue;
      asked.add(keyOf(question));
      taken.push(question.fallback ?? '');
      questions.push(question);
    }
    for (const query of findQueries(line)) {
      const question: Question = query.options
        ? { kind: 'choice', prompt: query.prompt, options: query.options }
        : { kind: 'text', prompt: query.prompt, fallback: query.fallback ?? '' };
      if (answered.has(query.prompt) || asked.has(keyOf(question))) continue;
      asked.add(keyOf(question));
      questions.push(question);
    }
    if (questions.length > 0) {
      const answers = await ask(questions);
      if (!answers) return { ok: false, cancelled: true };
      for (const question of questions) {
        const given = answers.get(keyOf(question)) ?? '';
        if (question.kind === 'target') {
          const token = env.tokens.find((t) => t.id === given && !t.removed);
          if (!token) return fail(`No token was picked for "${question.prompt}".`);
          picked.set(question.prompt, token);
        } else answered.set(question.prompt, question.kind === 'choice' ? unescapeChosen(given) : given);
      }
    }
    // 3. The target calls, now that each has its token; then the answers in the queries' places.
    const resolved = await resolveAttributes(line, macroEnv, picked, notes);
    if (!resolved.ok) return fail(resolved.error);
    line = resolved.line;
    const queries = findQueries(line);
    if (queries.length === 0) return { ok: true, line };
    for (const query of queries) {
      const answer = answered.get(query.prompt);
      if (answer !== undefined) line = line.split(query.text).join(answer);
    }
    if (!needsExpansion(line)) return { ok: true, line };
  }
  return fail(`The line fills itself in again and again (a query or attribute call in its own answer): ${input}`);
}

/** The labels of the line's @{target|...} calls, in order. */
function targetLabels(line: string): string[] {
  const labels: string[] = [];
  for (const call of line.matchAll(/@\{([^{}]*)\}/g)) {
    const parts = (call[1] ?? '').split('|').map((p) => p.trim());
    if ((parts[0] ?? '').toLowerCase() === 'target') labels.push(targetCall(parts.slice(1)).label);
  }
  return labels;
}

/** The token a target question starts on: the first one neither selected nor taken by another target. */
function defaultTarget(env: LineEnv, taken: string[]): string | undefined {
  const live = env.tokens.filter((t) => !t.removed);
  return (live.find((t) => !env.selection.includes(t) && !taken.includes(t.id)) ?? live[0])?.id;
}
