// The local sandbox's commands (as, select, !..., edit, next-turn, click, state, help), kept
// apart from terminal I/O so tests can drive it line by line.
import { existsSync } from 'node:fs';
import { renderMessage, type ChatButton } from './chat-text.js';
import { createRoll20, type MockObject, type MockRoll20 } from './roll20.js';
import { buildDemoScene, type DemoScene } from './scene.js';
import { loadBundle, loadBundleSource } from './vm.js';

export const HELP = `Commands:
  as <player>                 speak as GM, Alice or Ben (case-insensitive)
  select <token>[, <token>]   select tokens by name; "select" alone clears the selection
  !<command> ...              send a script command as the current player, with the selection
  edit <token> <bar1|bar2|bar3>[_max] <value>
                              edit a bar by hand, as a user (fires Roll20's change events)
  next-turn                   press the Turn Tracker's next-turn button
  click <n> [answer]          press button n of the last output; the answer fills ?{...}
                              (several queries: answers separated by |)
  state                       show the script's state
  help                        this text
  quit                        leave
  anything else               said in chat by the current player (/w, /em, /roll work)`;

export interface SessionOptions {
  /** Path of the bundle to load; ignored when source is given. */
  bundle?: string;
  source?: string;
  seed?: number;
}

export class CliSession {
  readonly mock: MockRoll20;
  readonly scene: DemoScene;
  private speaker: MockObject;
  private selection: MockObject[] = [];
  private buttons: ChatButton[] = [];
  private logCursor = 0;
  private warningCursor = 0;

  private constructor(options: SessionOptions) {
    this.mock = createRoll20({ seed: options.seed ?? 1 });
    this.scene = buildDemoScene(this.mock);
    this.speaker = this.mock.player('GM');
  }

  /** Builds the demo scene, loads the script, fires ready; returns the session and what it printed. */
  static async start(options: SessionOptions): Promise<{ session: CliSession; output: string }> {
    const session = new CliSession(options);
    const out: string[] = [];
    if (options.source === undefined && options.bundle !== undefined && !existsSync(options.bundle)) {
      throw new Error(`no bundle at ${options.bundle}: run \`npm run build\` first`);
    }
    await session.guard(out, async () => {
      if (options.source !== undefined) loadBundleSource(session.mock, options.source);
      else loadBundle(session.mock, options.bundle);
      session.mock.fireReady();
      await session.mock.settle();
    });
    out.push(...session.report(true));
    return { session, output: out.join('\n') };
  }

  prompt(): string {
    return `${this.speakerName()}> `;
  }

  /** Runs one line; `quit` is true when the user asked to leave. */
  async run(input: string): Promise<{ output: string; quit: boolean }> {
    const line = input.trim();
    const out: string[] = [];
    if (line === '' || line.startsWith('#')) return { output: '', quit: false };
    const [word = '', ...restWords] = line.split(/\s+/);
    const rest = restWords.join(' ');
    switch (word.toLowerCase()) {
      case 'quit':
      case 'exit':
        return { output: '', quit: true };
      case 'help':
        return { output: HELP, quit: false };
      case 'state':
        return { output: JSON.stringify(this.mock.state, null, 2), quit: false };
      case 'as':
        return { output: this.switchSpeaker(rest), quit: false };
      case 'select':
        return { output: this.select(rest), quit: false };
      case 'edit':
        await this.guard(out, async () => this.edit(rest));
        break;
      case 'next-turn':
        await this.guard(out, async () => {
          this.mock.nextTurn();
          await this.mock.settle();
        });
        break;
      case 'click': {
        const command = this.buttonCommand(restWords);
        if (!command.ok) return { output: command.error, quit: false };
        out.push(`(${this.speakerName()} clicks: ${command.line})`);
        await this.guard(out, () => this.say(command.line));
        break;
      }
      default:
        await this.guard(out, () => this.say(line));
    }
    out.push(...this.report(false));
    return { output: out.join('\n'), quit: false };
  }

  private speakerName(): string {
    return String(this.speaker.get('_displayname' as never));
  }

  private switchSpeaker(name: string): string {
    try {
      this.speaker = this.mock.player(name.trim());
      return `Now speaking as ${this.speakerName()}${this.mock.globals.playerIsGM(this.speaker.id) ? ' (GM)' : ''}.`;
    } catch {
      return `No player named "${name}". Players: ${this.players().join(', ')}.`;
    }
  }

  private select(list: string): string {
    const names = list.split(',').map((n) => n.trim()).filter((n) => n !== '');
    const found: MockObject[] = [];
    for (const name of names) {
      const token = this.findToken(name);
      if (!token) return `No token named "${name}". Tokens: ${this.tokens().map((t) => t.get('name')).join(', ')}.`;
      found.push(token);
    }
    this.selection = found;
    return found.length === 0 ? 'Selection cleared.' : `Selected: ${found.map((t) => t.get('name')).join(', ')}.`;
  }

  private async edit(args: string): Promise<void> {
    const match = /^(.+?)\s+(bar[123])(_value|_max)?\s+(\S+)$/i.exec(args.trim());
    if (!match) throw new UsageError('Usage: edit <token> <bar1|bar2|bar3>[_max] <value>, e.g. edit Goblin 1 bar1 25');
    const [, name = '', bar = '', part = '_value', value = ''] = match;
    const token = this.findToken(name);
    if (!token) throw new UsageError(`No token named "${name}". Tokens: ${this.tokens().map((t) => t.get('name')).join(', ')}.`);
    // A value typed into the bar bubble is stored as the text typed.
    this.mock.userEdit(token, { [`${bar.toLowerCase()}${part.toLowerCase()}`]: value });
    await this.mock.settle();
  }

  private buttonCommand(words: string[]): { ok: true; line: string } | { ok: false; error: string } {
    const [which = '', ...answerWords] = words;
    const n = Number(which);
    const button = Number.isInteger(n) ? this.buttons[n - 1] : undefined;
    if (!button) {
      return { ok: false, error: this.buttons.length === 0 ? 'The last output had no buttons.' : `Usage: click <1..${this.buttons.length}> [answer]` };
    }
    if (!button.command.startsWith('!') && !button.command.startsWith('/')) {
      return { ok: false, error: `Button ${n} is a link (${button.command}), not a chat command.` };
    }
    const queries = [...new Set(button.command.match(/\?\{[^}]*\}/g) ?? [])];
    const given = answerWords.join(' ');
    const answers = queries.length > 1 ? given.split('|').map((a) => a.trim()) : given === '' ? [] : [given];
    let line = button.command;
    for (const [i, query] of queries.entries()) {
      const [prompt = '', fallback] = query.slice(2, -1).split('|');
      const answer = answers[i] ?? fallback;
      if (answer === undefined || answer === '') return { ok: false, error: `Button ${n} asks "${prompt}": type click ${n} <answer>.` };
      line = line.split(query).join(answer);
    }
    if (/@\{(selected|target)\|/.test(line)) {
      const first = this.selection[0];
      if (!first) return { ok: false, error: `Button ${n} needs a token: select one first.` };
      line = line.replace(/@\{(?:selected|target)\|(?:[^|}]*\|)?token_id\}/g, first.id);
    }
    return { ok: true, line };
  }

  private async say(line: string): Promise<void> {
    await this.mock.chat(this.speaker.id, line, { selected: this.selection.filter((t) => !t.removed).map((t) => t.id) });
  }

  /** Runs an action; a sandbox crash or a usage mistake becomes output, never an exception. */
  private async guard(out: string[], action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (this.mock.crashes.length === 0) out.push(error instanceof UsageError ? error.message : `error: ${describe(error)}`);
    }
    for (const crash of this.mock.takeCrashes()) {
      // The mock's own frames say nothing about the script: keep the script's lines.
      const stack = crash.stack.split('\n').filter((line) => !/\/mocks\/|node:internal/.test(line)).join('\n');
      out.push(`!!! SANDBOX CRASH in ${crash.event}: in Roll20 every script would stop here !!!`, indent(stack));
    }
  }

  /** New chat messages, API log lines and mock warnings, then the tokens. */
  private report(withPlayers: boolean): string[] {
    const out: string[] = [];
    const buttons: ChatButton[] = [];
    for (const record of this.mock.newMessages()) {
      if (record.type === 'api') continue; // commands are not shown in Roll20's chat
      const rendered = renderMessage(record, buttons.length + 1);
      buttons.push(...rendered.buttons);
      out.push(...rendered.lines);
    }
    if (buttons.length > 0 || out.length > 0) this.buttons = buttons;
    for (const line of this.mock.logs.slice(this.logCursor)) out.push(`[api log] ${line}`);
    this.logCursor = this.mock.logs.length;
    for (const line of this.mock.warnings.slice(this.warningCursor)) out.push(`[mock warning] ${line}`);
    this.warningCursor = this.mock.warnings.length;
    if (withPlayers) {
      out.push(`Players: ${this.players().join(', ')}. Speaking as ${this.speakerName()}. Tokens (* selected, > turn):`);
    }
    out.push(...this.tokenLines());
    return out;
  }

  private tokenLines(): string[] {
    const tokens = this.tokens();
    const width = Math.max(...tokens.map((t) => String(t.get('name')).length), 4);
    const bar = (t: MockObject, n: number, label: string) => `${label} ${show(t.get(`bar${n}_value` as never))}/${show(t.get(`bar${n}_max` as never))}`;
    const turn = this.mock.turnOrder()[0]?.id;
    return tokens.map((t) => {
      const markers = String(t.get('statusmarkers')).split(',').filter((m) => m !== '');
      const flags = `${this.selection.includes(t) ? '*' : ' '}${turn === t.id ? '>' : ' '}`;
      return `${flags}${String(t.get('name')).padEnd(width)}  ${bar(t, 1, 'Vitality')}  ${bar(t, 2, 'Soul')}  ${bar(t, 3, 'Power')}${markers.length ? `  markers: ${markers.join(', ')}` : ''}`;
    });
  }

  private tokens(): MockObject[] {
    return this.mock.globals.findObjs({ _type: 'graphic', _subtype: 'token' }) as unknown as MockObject[];
  }

  private findToken(name: string): MockObject | undefined {
    const tokens = this.tokens();
    return tokens.find((t) => t.get('name') === name) ?? tokens.find((t) => String(t.get('name')).toLowerCase() === name.toLowerCase());
  }

  private players(): string[] {
    return (this.mock.globals.findObjs({ _type: 'player' }) as unknown as MockObject[]).map((p) => String(p.get('_displayname' as never)));
  }
}

class UsageError extends Error {}

function show(value: unknown): string {
  return value === '' || value === undefined ? '-' : String(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function indent(text: string): string {
  return text.split('\n').map((line) => `    ${line}`).join('\n');
}
