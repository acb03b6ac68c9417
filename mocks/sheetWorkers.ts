// A small sheet-worker runtime (issue 34): runs a character sheet's <script type="text/worker">
// against a set of attributes, as Roll20 runs it in the browser. It has what the companion sheet's
// workers use and what a test needs to drive them: on('change:NAME sheet:opened', cb), getAttrs,
// setAttrs (with its change events, unless { silent: true }), getSectionIDs, generateRowID and
// removeRepeatingRow (no repeating sections here), and eventInfo. Dependency-free and browser-safe
// (the playground bundles it): no node imports; the script runs through `new Function`.
//
// Roll20's calls are asynchronous; here every callback runs before the call that caused it
// returns, so a test reads the result at once. Names are case-insensitive, as on Roll20; an
// attribute's max is the attribute NAME_max.

export interface SheetAttributes {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

export interface EventInfo {
  sourceAttribute?: string;
  sourceType: 'player' | 'sheetworker';
  previousValue?: string;
  newValue?: string;
  triggerName: string;
}

export interface SheetWorkers {
  /** Roll20 opens the sheet: `sheet:opened` fires. */
  open(): void;
  /** A player changed an attribute (already set in `attributes`): `change:NAME` fires. */
  changed(name: string, previous?: string): void;
  /** The events the workers listen to (lower case). */
  events(): string[];
}

export interface SheetWorkerOptions {
  /** The worker's console.log lines (default: dropped). */
  log?: (line: string) => void;
}

/** The text of the sheet's one `<script type="text/worker">` ('' when it has none). */
export function workerScriptOf(html: string): string {
  const found = /<script type="text\/worker">([\s\S]*?)<\/script>/i.exec(html);
  return found?.[1] ?? '';
}

/** Each attribute field's default value in the sheet's HTML (its `value`, or the selected option). */
export function fieldDefaults(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tag of html.match(/<input\b[^>]*>/gi) ?? []) {
    const name = /\bname="attr_([^"]+)"/i.exec(tag)?.[1];
    if (name === undefined) continue;
    const type = /\btype="([^"]+)"/i.exec(tag)?.[1]?.toLowerCase();
    if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/i.test(tag)) continue;
    out[name.toLowerCase()] ??= decode(/\bvalue="([^"]*)"/i.exec(tag)?.[1] ?? '');
  }
  for (const select of html.match(/<select\b[^>]*name="attr_[^"]+"[^>]*>[\s\S]*?<\/select>/gi) ?? []) {
    const name = /name="attr_([^"]+)"/i.exec(select)![1]!.toLowerCase();
    const options = select.match(/<option\b[^>]*>/gi) ?? [];
    const chosen = options.find((option) => /\bselected\b/i.test(option)) ?? options[0];
    if (chosen !== undefined && out[name] === undefined) out[name] = decode(/\bvalue="([^"]*)"/i.exec(chosen)?.[1] ?? '');
  }
  return out;
}

const decode = (text: string): string => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Runs the sheet's workers against `attributes`; the caller fires the events. */
export function runSheetWorkers(html: string, attributes: SheetAttributes, options: SheetWorkerOptions = {}): SheetWorkers {
  const defaults = fieldDefaults(html);
  const handlers = new Map<string, Array<(info: EventInfo) => void>>();
  let depth = 0;

  const read = (name: string): string => attributes.get(name) ?? attributes.get(name.toLowerCase()) ?? defaults[name.toLowerCase()] ?? '';
  const fire = (event: string, info: EventInfo): void => {
    const list = handlers.get(event.toLowerCase()) ?? [];
    if (list.length === 0) return;
    // A worker that sets what it listens to would loop for ever on Roll20 too: stop it here.
    if (depth > 20) throw new Error(`sheet workers: more than 20 nested change events (at ${event})`);
    depth += 1;
    try {
      for (const handler of list) handler(info);
    } finally {
      depth -= 1;
    }
  };

  const api = {
    on(events: string, callback: (info: EventInfo) => void): void {
      for (const event of events.toLowerCase().split(/\s+/).filter((e) => e !== '')) {
        handlers.set(event, [...(handlers.get(event) ?? []), callback]);
      }
    },
    getAttrs(names: string[], callback?: (values: Record<string, string>) => void): void {
      const values: Record<string, string> = {};
      for (const name of names) values[name] = read(name);
      callback?.(values);
    },
    setAttrs(values: Record<string, unknown>, opts?: { silent?: boolean } | (() => void), callback?: () => void): void {
      const done = typeof opts === 'function' ? opts : callback;
      const silent = typeof opts === 'object' && opts !== null && opts.silent === true;
      const changes: Array<{ name: string; before: string; after: string }> = [];
      for (const [name, value] of Object.entries(values)) {
        const before = read(name);
        const after = value === undefined || value === null ? '' : String(value);
        attributes.set(name, after);
        changes.push({ name, before, after });
      }
      if (!silent) {
        for (const { name, before, after } of changes) {
          const event = `change:${name.toLowerCase()}`;
          fire(event, { sourceAttribute: name.toLowerCase(), sourceType: 'sheetworker', previousValue: before, newValue: after, triggerName: name.toLowerCase() });
        }
      }
      done?.();
    },
    getSectionIDs(_section: string, callback: (ids: string[]) => void): void {
      callback([]);
    },
    generateRowID(): string {
      return `-${Math.random().toString(36).slice(2, 12)}`;
    },
    removeRepeatingRow(_row: string): void {},
    console: { log: (...parts: unknown[]) => options.log?.(parts.map(String).join(' ')) },
  };

  const names = Object.keys(api);
  // The worker sees Roll20's functions as globals; nothing of the page's own.
  const run = new Function(...names, workerScriptOf(html)) as (...args: unknown[]) => void;
  run(...names.map((name) => api[name as keyof typeof api]));

  return {
    open() {
      fire('sheet:opened', { sourceType: 'player', triggerName: 'sheet:opened' });
    },
    changed(name, previous) {
      const key = name.toLowerCase();
      fire(`change:${key}`, { sourceAttribute: key, sourceType: 'player', previousValue: previous, newValue: read(name), triggerName: key });
    },
    events() {
      return [...handlers.keys()];
    },
  };
}
