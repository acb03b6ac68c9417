// The local sandbox's commands (as, select, target, answer, !..., edit, next-turn, click, buttons,
// tokens, state, help), kept apart from terminal I/O so tests can drive it line by line.
import { existsSync } from 'node:fs';
import { renderMessage, type ChatButton } from './chat-text.js';
import { expandMacro, needsExpansion, queryPrompts, type Prompter } from './cli-macro.js';
import { createRoll20, type MockObject, type MockRoll20 } from './roll20.js';
import { buildDemoScene, type DemoScene } from './scene.js';
import { loadBundle, loadBundleSource } from './vm.js';
import { sampleEdits, switchNote, WORN, type SampleEdit } from './sample-table.js';
import { controllersOf, hiddenFromPlayers, numbersHiddenFrom, whyNotSelectable } from './table-view.js';
import { editionIds, isEditionId } from '../src/rules/editions.js';
import type { EditionId } from '../src/rules/edition.js';

export const HELP = `Commands:
  as <player>                 speak as GM, Alice (Bob's player) or Ben (Cleo's) (case-insensitive);
                              each has a selection of her own, and sees NPC numbers only as the
                              script shows them to her
  select <token>[, <token>]   select tokens by name; "select" alone clears the selection. A player
                              selects only the tokens she controls (the GM any), as in Roll20
  target <token>[, <token>]   the token(s) the next line's @{target|...} picks, one per label in
                              order; otherwise a terminal asks, and piped input takes the first
                              token not selected (and says so)
  answer <value>[ | <value>]  answers for the next line's ?{...} queries, in order; otherwise a
                              terminal asks, and piped input takes each query's default
  !<command> ...              send a script command as the current player, with the selection;
                              ?{Question|default}, ?{Q|Label,value|...}, @{selected|attr},
                              @{selected|token_id}, @{target|Label|token_id}, @{Character|attr}
                              and [[inline rolls]] work as in Roll20's chat
  edit <token> <bar1|bar2|bar3>[_max] <value>
                              edit a bar by hand, as a user (fires Roll20's change events)
  next-turn                   press the Turn Tracker's next-turn button
  wait <seconds>              let time pass at the table (an attack's answer-timeout runs out)
  dice <face> [<face> ...]    the next dice rolled show these faces (the sandbox's own, so a fight
                              plays the same every time)
  click <n> [answer]          press button n (buttons are numbered across the session and stay
                              clickable); the answer fills ?{...} (several: separated by |).
                              A whispered button is clickable only by whom it was whispered to
  click "<label>" [answer]    press the latest button with that label
  buttons                     list every button of the session, with who may click it
  tokens                      names, ids, characters, bars, markers and who controls each token
  state                       show the script's state
  help                        this text
  quit                        leave
  anything else               said in chat by the current player (/w, /em, /roll work)
An attack to try: next-turn, select Goblin 1, target Bob, then
  !attack [[1d8+2]] --ids @{target|Defender|token_id}
and Alice answers with one click: as Alice, click "Defend" (or "No defense").
After !defense-round config edition X the sandbox gives the demo table X's sample values (and
says which): the script itself keeps bars and armor on a switch.
Scripted fights: npm start -- --demo ${editionIds().join('|')}`;

export interface SessionOptions {
  /** Path of the bundle to load; ignored when source is given. */
  bundle?: string;
  source?: string;
  seed?: number;
  /** Asks queries and targets at a terminal; without it defaults are taken and said. */
  prompter?: Prompter;
  /** 'all' (the default) lists every token after each command; 'changed' only those that changed. */
  tokenList?: 'all' | 'changed';
}

/** A button of the session: numbered once, kept for the whole session. */
export interface SessionButton extends ChatButton {
  n: number;
  /** Who posted the message that carries it. */
  from: string;
  /** undefined: public; 'gm', or the name it was whispered to. */
  whisperTo?: string;
  /** The player who sent the message (a player whispering sees their own whisper), or 'API'. */
  senderId: string;
}

export class CliSession {
  readonly mock: MockRoll20;
  readonly scene: DemoScene;
  private speaker: MockObject;
  /** Each player's own selection, by player id: Roll20 keeps one per player. */
  private readonly selections = new Map<string, MockObject[]>();
  private targetPicks: MockObject[] = [];
  private pendingAnswers: string | undefined;
  private readonly buttons: SessionButton[] = [];
  private readonly prompter: Prompter | undefined;
  private readonly tokenList: 'all' | 'changed';
  private shownTokens = new Map<string, string>();
  private logCursor = 0;
  private pingCursor = 0;
  private warningCursor = 0;

  private constructor(options: SessionOptions) {
    this.mock = createRoll20({ seed: options.seed ?? 1 });
    this.scene = buildDemoScene(this.mock);
    this.speaker = this.mock.player('GM');
    this.prompter = options.prompter;
    this.tokenList = options.tokenList ?? 'all';
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

  /** The current speaker's selection (tokens since removed left out). */
  private get selection(): MockObject[] {
    return (this.selections.get(this.speaker.id) ?? []).filter((t) => !t.removed);
  }

  private set selection(tokens: MockObject[]) {
    this.selections.set(this.speaker.id, tokens);
  }

  prompt(): string {
    return `${this.speakerName()}> `;
  }

  /** Every button posted so far, by number (1 first). */
  allButtons(): readonly SessionButton[] {
    return this.buttons;
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
      case 'target':
        return { output: this.target(rest), quit: false };
      case 'answer':
        this.pendingAnswers = rest === '' ? undefined : rest;
        return { output: rest === '' ? 'Answers cleared.' : `The next line's queries get: ${rest}`, quit: false };
      case 'tokens':
        return { output: this.tokenTable().join('\n'), quit: false };
      case 'buttons':
        return { output: this.buttonList().join('\n'), quit: false };
      case 'edit':
        await this.guard(out, async () => this.edit(rest));
        break;
      case 'wait': {
        const seconds = Number(rest);
        if (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) return { output: 'wait takes a number of seconds (0 to 86400).', quit: false };
        await this.guard(out, async () => {
          this.mock.advance(seconds * 1000);
          await this.mock.settle();
        });
        out.push(`(${seconds} s pass)`);
        break;
      }
      case 'next-turn':
        await this.guard(out, async () => {
          this.mock.nextTurn();
          await this.mock.settle();
        });
        break;
      case 'dice':
        return { output: this.forceDice(rest), quit: false };
      case 'click': {
        const command = await this.buttonCommand(rest);
        if (!command.ok) return { output: command.error, quit: false };
        out.push(...command.notes, `(${this.speakerName()} clicks: ${command.line})`);
        await this.sayAndFollow(out, command.line);
        break;
      }
      default: {
        if (needsExpansion(line)) {
          const answers = this.takeAnswers(line);
          const expanded = await expandMacro(line, this.macroEnv(answers));
          if (/@\{target\|/i.test(line)) this.targetPicks = [];
          if (!expanded.ok) return { output: `${expanded.error} Nothing was sent.`, quit: false };
          out.push(...expanded.notes);
          if (expanded.line !== line) out.push(`(sent: ${expanded.line})`);
          await this.sayAndFollow(out, expanded.line);
        } else {
          await this.sayAndFollow(out, line);
        }
      }
    }
    out.push(...this.report(false));
    return { output: out.join('\n'), quit: false };
  }

  private macroEnv(answers: string[]) {
    return {
      mock: this.mock,
      selection: this.selection,
      tokens: this.tokens(),
      targetPicks: this.targetPicks,
      answers,
      ...(this.prompter ? { prompter: this.prompter } : {}),
    };
  }

  /** The answers given with `answer`, split one per query of this line. */
  private takeAnswers(line: string, given = this.pendingAnswers): string[] {
    const queries = queryPrompts(line).length;
    if (given === undefined || given === '' || queries === 0) return [];
    if (given === this.pendingAnswers) this.pendingAnswers = undefined;
    return queries > 1 ? given.split('|').map((a) => a.trim()) : [given];
  }

  private speakerName(): string {
    return String(this.speaker.get('_displayname' as never));
  }

  private switchSpeaker(name: string): string {
    try {
      this.speaker = this.mock.player(name.trim());
      const selected = this.selection.map((t) => String(t.get('name')));
      const hers = selected.length > 0 ? ` Selected: ${selected.join(', ')}.` : '';
      return `Now speaking as ${this.speakerName()}${this.isGM() ? ' (GM)' : ''}.${hers}`;
    } catch {
      return `No player named "${name}". Players: ${this.players().join(', ')}.`;
    }
  }

  private namedTokens(list: string): { ok: true; tokens: MockObject[] } | { ok: false; error: string } {
    const names = list.split(',').map((n) => n.trim()).filter((n) => n !== '');
    const found: MockObject[] = [];
    for (const name of names) {
      const token = this.findToken(name);
      if (!token) return { ok: false, error: `No token named "${name}". Tokens: ${this.tokens().map((t) => t.get('name')).join(', ')}.` };
      found.push(token);
    }
    return { ok: true, tokens: found };
  }

  /** As in Roll20, a player selects only tokens she controls (the GM any): the others are left out, each with why. */
  private select(list: string): string {
    const named = this.namedTokens(list);
    if (!named.ok) return named.error;
    const refused = named.tokens.flatMap((t) => {
      const why = whyNotSelectable(this.mock, this.speaker.id, t);
      return why === undefined ? [] : [`${this.speakerName()} cannot select ${String(t.get('name'))}: it ${why} (the GM selects any).`];
    });
    const allowed = named.tokens.filter((t) => whyNotSelectable(this.mock, this.speaker.id, t) === undefined);
    if (named.tokens.length === 0) {
      this.selection = [];
      return 'Selection cleared.';
    }
    if (allowed.length === 0) {
      const now = this.selection.map((t) => String(t.get('name')));
      return [...refused, `Selection unchanged${now.length > 0 ? `: ${now.join(', ')}` : ''}.`].join('\n');
    }
    this.selection = allowed;
    return [...refused, `Selected: ${allowed.map((t) => t.get('name')).join(', ')}.`].join('\n');
  }

  /** `dice 10 4`: the next dice rolled show these faces. */
  private forceDice(args: string): string {
    const faces = args.split(/[\s,]+/).filter((f) => f !== '').map(Number);
    if (faces.length === 0 || faces.some((f) => !Number.isInteger(f) || f < 1)) return 'Usage: dice <face> [<face> ...], whole numbers from 1, e.g. dice 10';
    this.mock.dice.force(...faces);
    return `The next ${faces.length === 1 ? 'die shows' : `${faces.length} dice show`} ${faces.join(', ')}.`;
  }

  private target(list: string): string {
    const named = this.namedTokens(list);
    if (!named.ok) return named.error;
    this.targetPicks = named.tokens;
    if (named.tokens.length === 0) return 'Targets cleared.';
    return `The next line's @{target|...} ${named.tokens.length === 1 ? 'picks' : 'pick, label by label'}: ${named.tokens.map((t) => t.get('name')).join(', ')}.`;
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

  /** Who may click a button: its message's audience (the GM for /w gm), or everyone when public. */
  private mayClick(button: SessionButton): boolean {
    const to = button.whisperTo;
    if (to === undefined) return true;
    if (button.senderId === this.speaker.id) return true;
    if (to === 'gm') return this.isGM();
    if (this.speakerName().toLowerCase() === to.toLowerCase()) return true;
    // A whisper to a character reaches the players who control it.
    const characters = this.mock.globals.findObjs({ _type: 'character' }) as unknown as MockObject[];
    return characters.some((c) => String(c.get('name')).toLowerCase() === to.toLowerCase() && controllersOf(c).some((id) => id === this.speaker.id || id === 'all'));
  }

  private audience(button: SessionButton): string {
    return button.whisperTo === undefined ? 'everyone' : button.whisperTo === 'gm' ? 'the GM' : button.whisperTo;
  }

  /**
   * The latest button with this label (else the latest whose label starts with it: "Defend" finds
   * "Defend (55)"), preferring one the speaker may click: two players' prompts carry the same labels.
   */
  private latestLabelled(label: string): SessionButton | undefined {
    const wanted = label.trim().toLowerCase();
    const latest = [...this.buttons].reverse();
    for (const matches of [(b: SessionButton) => b.label.toLowerCase() === wanted, (b: SessionButton) => b.label.toLowerCase().startsWith(wanted)]) {
      const found = latest.filter(matches);
      if (found.length > 0) return found.find((b) => this.mayClick(b)) ?? found[0];
    }
    return undefined;
  }

  private async buttonCommand(args: string): Promise<{ ok: true; line: string; notes: string[] } | { ok: false; error: string }> {
    // click <n> [answer], or click "<label>" [answer]: the latest button with that label.
    const quoted = /^"([^"]+)"\s*(.*)$/.exec(args);
    const [which = '', ...answerWords] = quoted ? [quoted[1]!, ...(quoted[2] ? [quoted[2]] : [])] : args.split(/\s+/);
    const byLabel = quoted ? this.latestLabelled(which) : undefined;
    if (quoted && !byLabel) return { ok: false, error: `No button labelled "${which}" yet ("buttons" lists them).` };
    const n = byLabel ? byLabel.n : Number(which);
    const button = Number.isInteger(n) ? this.buttons[n - 1] : undefined;
    if (!button) {
      return {
        ok: false,
        error: this.buttons.length === 0 ? 'No buttons yet: a button is clickable once a message shows it.' : `Usage: click <1..${this.buttons.length}> [answer]  ("buttons" lists them)`,
      };
    }
    if (!this.mayClick(button)) {
      return {
        ok: false,
        error: `Button ${n} (${button.label}) was whispered to ${this.audience(button)}: only ${this.audience(button)} can click it, not ${this.speakerName()}.`,
      };
    }
    if (!button.command.startsWith('!') && !button.command.startsWith('/')) {
      return { ok: false, error: `Button ${n} is a link (${button.command}), not a chat command.` };
    }
    if (!needsExpansion(button.command)) return { ok: true, line: button.command, notes: [] };
    const given = answerWords.join(' ');
    const answers = this.takeAnswers(button.command, given === '' ? this.pendingAnswers : given);
    if (given === '' && answers.length > 0) this.pendingAnswers = undefined;
    const expanded = await expandMacro(button.command, this.macroEnv(answers));
    if (/@\{target\|/i.test(button.command)) this.targetPicks = [];
    if (!expanded.ok) {
      return { ok: false, error: expanded.query !== undefined ? `Button ${n} asks "${expanded.query}": type click ${n} <answer>.` : `Button ${n}: ${expanded.error}` };
    }
    return { ok: true, line: expanded.line, notes: expanded.notes };
  }

  private async say(line: string): Promise<void> {
    await this.mock.chat(this.speaker.id, line, { selected: this.selection.map((t) => t.id) });
  }

  /**
   * Says a line; when it switched the edition, gives the demo table the new edition's sample values
   * as the GM's own edits and says so (the script keeps values on a switch by design).
   */
  private async sayAndFollow(out: string[], line: string): Promise<void> {
    const before = this.edition();
    await this.guard(out, () => this.say(line));
    const after = this.edition();
    if (after === undefined || after === before) return;
    out.push(...this.newOutput());
    let made: SampleEdit[] = [];
    await this.guard(out, async () => {
      made = await this.giveSample(after);
    });
    const note = switchNote(after, made, 'The sandbox');
    if (note !== undefined) out.push(...this.newOutput(), `(${note})`);
  }

  /** The edition the script plays now, from its state. */
  private edition(): EditionId | undefined {
    const stored = (this.mock.state.DefenseRound as { settings?: { edition?: unknown } } | undefined)?.settings?.edition;
    return isEditionId(stored) ? stored : undefined;
  }

  /** The sample's edits not already on the table, made as the GM's hand edits (Roll20 fires their events). */
  private async giveSample(edition: EditionId): Promise<SampleEdit[]> {
    const settings = (this.mock.state.DefenseRound as { settings?: { attributes?: Record<string, string>; bars?: Record<string, string> } } | undefined)?.settings;
    const made: SampleEdit[] = [];
    for (const edit of sampleEdits(edition)) {
      const value = String(edit.value);
      if (edit.kind === 'vitality') {
        const bar = settings?.bars?.vitality ?? 'bar1';
        const token = this.findToken(edit.token);
        if (!token || (String(token.get(`${bar}_value`)) === value && String(token.get(`${bar}_max`)) === value)) continue;
        this.mock.userEdit(token, { [`${bar}_value`]: value, [`${bar}_max`]: value });
      } else {
        const name = settings?.attributes?.[edit.key] ?? edit.key;
        const character = (this.mock.globals.findObjs({ _type: 'character', name: edit.character }) as unknown as MockObject[])[0];
        if (!character) continue;
        const props: Record<string, string> = WORN.has(edit.key) ? { current: value, max: value } : { current: value };
        const attribute = (this.mock.globals.findObjs({ _type: 'attribute', _characterid: character.id }) as unknown as MockObject[]).find((a) => String(a.get('name')).toLowerCase() === name.toLowerCase());
        if (attribute && Object.entries(props).every(([k, v]) => String(attribute.get(k)) === v)) continue;
        if (attribute) this.mock.userEdit(attribute, props);
        else this.mock.userCreate('attribute', { characterid: character.id, name, current: '', max: '', ...props });
      }
      made.push(edit);
      await this.mock.settle();
    }
    return made;
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
    const out = this.newOutput();
    if (withPlayers) {
      out.push(`Players: ${this.players().join(', ')}. Speaking as ${this.speakerName()}. Tokens (* selected, > turn):`);
    }
    out.push(...this.tokenLines(withPlayers));
    return out;
  }

  /** New chat messages, API log lines and mock warnings. */
  private newOutput(): string[] {
    const out: string[] = [];
    for (const record of this.mock.newMessages()) {
      if (record.type === 'api') continue; // commands are not shown in Roll20's chat
      const rendered = renderMessage(record, this.buttons.length + 1);
      for (const button of rendered.buttons) {
        this.buttons.push({
          ...button,
          n: this.buttons.length + 1,
          from: record.who,
          senderId: record.playerid,
          ...(record.whisperTo !== undefined ? { whisperTo: record.whisperTo } : {}),
        });
      }
      out.push(...rendered.lines);
    }
    // Roll20 shows a ping on the map only to the players it names (everyone when it names none).
    for (const ping of this.mock.pings.slice(this.pingCursor)) {
      const token = this.tokens().find((t) => t.get('left') === ping.left && t.get('top') === ping.top && t.get('_pageid' as never) === ping.pageId);
      const seen = ping.visibleTo === null ? 'everyone' : ping.visibleTo.map((id) => String(this.mock.globals.getObj('player', id)?.get('_displayname') ?? id)).join(', ');
      out.push(`[ping] ${token ? String(token.get('name')) : `(${ping.left}, ${ping.top})`}, seen by ${seen}`);
    }
    this.pingCursor = this.mock.pings.length;
    for (const line of this.mock.logs.slice(this.logCursor)) out.push(`[api log] ${line}`);
    this.logCursor = this.mock.logs.length;
    for (const line of this.mock.warnings.slice(this.warningCursor)) out.push(`[mock warning] ${line}`);
    this.warningCursor = this.mock.warnings.length;
    return out;
  }

  private isGM(): boolean {
    return this.mock.globals.playerIsGM(this.speaker.id) === true;
  }

  /** The tokens the speaker sees: a player not those hidden from the players (the GM layer). */
  private seenTokens(): MockObject[] {
    return this.isGM() ? this.tokens() : this.tokens().filter((t) => !hiddenFromPlayers(this.mock, t));
  }

  /** Whether the script keeps this token's numbers from the speaker (an NPC's, for a player, by the GM's visibility setting). */
  private hidesNumbers(token: MockObject): boolean {
    return numbersHiddenFrom(this.mock, this.speaker.id, token);
  }

  private tokenLines(all: boolean): string[] {
    const tokens = this.seenTokens();
    const width = Math.max(...tokens.map((t) => String(t.get('name')).length), 4);
    // A player reads an NPC's bars only where the script would show her its numbers.
    const bar = (t: MockObject, n: number, label: string) => (this.hidesNumbers(t) ? `${label} (hidden)` : `${label} ${show(t.get(`bar${n}_value` as never))}/${show(t.get(`bar${n}_max` as never))}`);
    const turn = this.mock.turnOrder()[0]?.id;
    const lines: string[] = [];
    for (const t of tokens) {
      const markers = String(t.get('statusmarkers')).split(',').filter((m) => m !== '');
      const flags = `${this.selection.includes(t) ? '*' : ' '}${turn === t.id ? '>' : ' '}`;
      const text = `${String(t.get('name')).padEnd(width)}  ${bar(t, 1, 'Vitality')}  ${bar(t, 2, 'Soul')}  ${bar(t, 3, 'Power')}${markers.length ? `  markers: ${markers.join(', ')}` : ''}`;
      const changed = this.shownTokens.get(t.id) !== `${flags[1]}${text}`;
      this.shownTokens.set(t.id, `${flags[1]}${text}`);
      if (all || this.tokenList === 'all' || changed) lines.push(`${flags}${text}`);
    }
    return lines;
  }

  /** The `tokens` command: everything about each token that a command might need. */
  private tokenTable(): string[] {
    const tokens = this.seenTokens();
    if (tokens.length === 0) return ['No tokens on the page.'];
    const turnOrder = this.mock.turnOrder();
    const out = ['Tokens on the page (* selected, > turn):'];
    if (tokens.some((t) => this.hidesNumbers(t))) out.push(`(hidden: numbers the script keeps from ${this.speakerName()}, as the GM's visibility setting says for NPCs)`);
    for (const t of tokens) {
      const flags = `${this.selection.includes(t) ? '*' : ' '}${turnOrder[0]?.id === t.id ? '>' : ' '}`;
      const characterId = String(t.get('represents') ?? '');
      const character = characterId === '' ? undefined : (this.mock.globals.getObj('character', characterId) as MockObject | undefined);
      out.push(`${flags}${String(t.get('name'))}  id ${t.id}  ${character ? `character ${String(character.get('name'))}` : 'no character'}`);
      const own = controllersOf(t);
      const viaCharacter = character ? controllersOf(character) : [];
      const who = [...new Set([...own, ...viaCharacter])].map((id) => this.controllerName(id));
      const source = own.length > 0 && viaCharacter.length > 0 ? 'token and character' : own.length > 0 ? 'token' : 'character';
      out.push(`    controlled by: ${who.length === 0 ? 'the GM only (an NPC)' : `${who.join(', ')} (through the ${source}) and the GM`}`);
      const hidden = this.hidesNumbers(t);
      const bars = [1, 2, 3].map((n) => {
        const link = String(t.get(`bar${n}_link`) ?? '');
        const attr = link === '' ? undefined : (this.mock.globals.getObj('attribute', link) as MockObject | undefined);
        if (hidden) return `bar${n} (hidden)`;
        return `bar${n} ${show(t.get(`bar${n}_value`))}/${show(t.get(`bar${n}_max`))}${attr ? ` (linked to ${String(attr.get('name'))})` : ''}`;
      });
      out.push(`    ${bars.join('  ')}`);
      const markers = String(t.get('statusmarkers')).split(',').filter((m) => m !== '');
      const entry = turnOrder.find((e) => e.id === t.id);
      out.push(`    markers: ${markers.length ? markers.join(', ') : 'none'}${entry ? `  initiative: ${String(entry.pr)}` : '  not in the Turn Tracker'}`);
    }
    return out;
  }

  private controllerName(id: string): string {
    if (id === 'all') return 'all players';
    const player = this.mock.globals.getObj('player', id) as MockObject | undefined;
    return player ? String(player.get('_displayname' as never)) : `unknown player ${id}`;
  }

  private buttonList(): string[] {
    if (this.buttons.length === 0) return ['No buttons yet.'];
    return this.buttons.map((b) => {
      const clickable = this.mayClick(b) ? '' : ` (not clickable by ${this.speakerName()})`;
      return `[${b.n}: ${b.label}] ${b.command}  from ${b.from}, for ${this.audience(b)}${clickable}`;
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
