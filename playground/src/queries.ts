// What Roll20 asks before it sends a button's command: ?{Prompt}, ?{Prompt|default} (a text box),
// ?{Prompt|a|b|Label,value} (a drop-down), each prompt asked once; @{target|Label|token_id} (a
// token to click). The page asks in a dialog, then fills the answers in.

export type Question =
  | { kind: 'text'; prompt: string; fallback: string }
  | { kind: 'choice'; prompt: string; options: Array<{ label: string; value: string }> }
  | { kind: 'target'; prompt: string };

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
