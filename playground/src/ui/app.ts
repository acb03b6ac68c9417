// The page: token cards, the Turn Tracker, the chat log and box, the edition switch, reset, the
// rules' example and the share link, all drawn from one Fight. Every action goes through one
// queue, so steps never interleave; the fragment follows every step.
import { hiddenFrom, viewOf, type MessageView } from '../chat.js';
import { exampleOf, type ExampleMove } from '../examples.js';
import { switchNote } from '../../../mocks/sample-table.js';
import { DEFAULT_EDITION } from '../../../src/rules/editions.js';
import { EDITIONS, Fight, type Edition, type TokenView } from '../fight.js';
import type { MockObject } from '../../../mocks/roll20.js';
import { fillLine, keyOf, type Question } from '../queries.js';
import { BAR_KEYS, fragmentOf, isFightFragment, specFromFragment, type BarKey, type FightSpec } from '../share.js';
import { flagHintsOf, suggestionsOf } from '../suggestions.js';
import { inlineNodes, messageNode, type ChatHandlers } from './chat-view.js';
import { append, byId, clear, h, initials } from './dom.js';
import { markerBase, markerIcon, TableMap } from './map.js';
import { SheetPanel } from './sheet.js';

interface Shown {
  li: HTMLLIElement;
  view: MessageView;
  sentBy: string;
}

interface Card {
  li: HTMLLIElement;
  title: HTMLElement;
  owner: HTMLElement;
  select: HTMLInputElement;
  turn: HTMLElement;
  bars: HTMLElement;
  markers: HTMLElement;
  sheet: HTMLElement;
  edit: HTMLDetailsElement;
  form: HTMLFormElement;
  /** Opens the character's sheet: shown only to the GM and the character's controllers. */
  sheetButton: HTMLButtonElement;
}

export class App {
  private fight!: Fight;
  private queue: Promise<void> = Promise.resolve();
  private shown = new Map<number, Shown>();
  private cards = new Map<string, Card>();
  private map!: TableMap;
  private consoleCount = 0;
  private sent: string[] = [];
  private recall = -1;
  private lastFragment = '';
  private readonly handlers: ChatHandlers = { press: (command, label) => this.press(command, label) };
  private sheet!: SheetPanel;

  constructor(private readonly source: string) {}

  start(): void {
    this.sheet = new SheetPanel({ fight: () => this.fight, act: (action) => this.act(action), press: (line, label) => this.press(line, label) });
    byId('chat-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.sendFromBox();
    });
    byId<HTMLInputElement>('chat-input').addEventListener('keydown', (event) => this.recallKey(event));
    byId<HTMLSelectElement>('speaker').addEventListener('change', (event) => {
      this.fight.speaker = (event.target as HTMLSelectElement).value;
      this.selectionNote('');
      this.render();
    });
    const edition = byId<HTMLSelectElement>('edition');
    for (const id of EDITIONS) edition.append(h('option', { text: id, attrs: { value: id } }));
    edition.addEventListener('change', () => {
      const wanted = edition.value as Edition;
      // The demo table gets the edition's values with the switch: its worked example plays from the first click.
      this.act(async () => {
        const before = this.fight.edition();
        if (await this.fight.switchEdition(wanted)) await this.afterSwitch(before);
      });
    });
    byId('reset').addEventListener('click', () => this.load({ v: 1, scene: 'demo', seed: 1, steps: [] }, true));
    byId('next-turn').addEventListener('click', () => this.act(() => this.fight.nextTurn()));
    byId('share').addEventListener('click', () => void this.share());
    byId('example-setup').addEventListener('click', () =>
      this.act(async () => {
        const edition = this.fight.edition();
        const done = await exampleOf(edition)?.setup(this.fight);
        if (done && (done.edits.length > 0 || done.nextTurn)) this.fight.note(`The example is set up: ${this.setUpWords(edition, done)}`);
      }),
    );
    this.map = new TableMap(byId('map'), 'map-h', (id, additive) => this.tokenClicked(id, additive), 'map-note');
    // For the console (and the browser test): what no control does yet. Not a step, so not in a share link.
    (window as unknown as { playground?: unknown }).playground = {
      moveToLayer: (name: string, layer: 'objects' | 'gmlayer' | 'map') => this.act(() => this.fight.moveToLayer(name, layer)),
    };
    byId('clear-selection').addEventListener('click', () => {
      this.fight.selection = [];
      this.selectionNote('');
      this.render();
    });
    // Only a fight (or none) in the address is a fight to load; other fragments are the page's own.
    const fromAddress = () => {
      if (location.hash === this.lastFragment || !isFightFragment(location.hash)) return;
      this.lastFragment = location.hash; // popstate and hashchange both come: load once
      this.loadFragment(location.hash);
    };
    // The log stays at its newest line when the window changes size (a phone turned, say).
    const log = byId('log');
    log.addEventListener('scroll', () => {
      this.pinned = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    });
    new ResizeObserver(() => {
      if (this.pinned) log.scrollTop = log.scrollHeight;
    }).observe(log);
    const skip = document.querySelector<HTMLAnchorElement>('a.skip');
    skip?.addEventListener('click', (event) => {
      event.preventDefault();
      byId('chat-input').focus();
    });
    window.addEventListener('hashchange', fromAddress);
    window.addEventListener('popstate', fromAddress);
    this.loadFragment(location.hash);
  }

  // ---- loading and acting ---------------------------------------------------------------------

  /** The address's fight, or a fresh table: a fragment that is not a fight (#top, say) is no damaged link. */
  private loadFragment(hash: string): void {
    const decoded = isFightFragment(hash) ? specFromFragment(hash) : specFromFragment('');
    if (decoded.ok) this.load(decoded.spec, false);
    else {
      this.load({ v: 1, scene: 'demo', seed: 1, steps: [] }, false, `This link's fight could not be loaded: ${decoded.error}. Here is a fresh table.`);
    }
  }

  /** A fresh table, with the spec's steps replayed. */
  private load(spec: FightSpec, push: boolean, problem?: string): void {
    this.enqueue(async () => {
      this.sheet.close();
      this.fight = await Fight.start(this.source, spec);
      this.shown.clear();
      this.cards.clear();
      clear(byId('log'));
      clear(byId('tokens'));
      this.map.clear();
      clear(byId('console-log'));
      this.consoleCount = 0;
      if (problem) byId('log').append(h('li', { class: 'msg msg-system', attrs: { role: 'note' }, text: problem }));
      byId('version').textContent = `v${this.fight.version()}`;
      this.render(push);
    });
  }

  private act(action: () => Promise<unknown>): void {
    this.enqueue(async () => {
      await action();
      this.render();
    });
  }

  /** Runs tasks one after another; the page says busy until the last one is done. */
  private enqueue(task: () => Promise<void>): void {
    const main = byId('main');
    this.inFlight++;
    main.setAttribute('aria-busy', 'true');
    document.body.dataset.state = 'busy';
    this.queue = this.queue
      .then(task)
      .catch((error: unknown) => {
        byId('log').append(h('li', { class: 'msg msg-crash', attrs: { role: 'alert' }, text: `The playground failed: ${String(error)}` }));
      })
      .finally(() => {
        this.inFlight--;
        if (this.inFlight === 0) {
          main.setAttribute('aria-busy', 'false');
          document.body.dataset.state = 'ready';
        }
      });
  }

  private inFlight = 0;
  private pinned = true;

  private sendFromBox(): void {
    const input = byId<HTMLInputElement>('chat-input');
    const line = input.value.trim();
    if (line === '') return;
    input.value = '';
    this.sent.push(line);
    this.recall = -1;
    this.enqueue(async () => {
      const sent = await this.send(line, 'Before your line is sent, Roll20 asks');
      // Not sent (cancelled, refused, or it could not be filled in): back in the box, to fix or drop.
      if (!sent && input.value === '') input.value = line;
    });
  }

  private recallKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    if (this.sent.length === 0) return;
    const input = event.target as HTMLInputElement;
    // A line being typed keeps Up and Down for the box's suggestions; an empty box or a recalled line recalls.
    if (input.value !== '' && input.value !== this.sent[this.recall]) return;
    event.preventDefault();
    if (event.key === 'ArrowUp') this.recall = this.recall < 0 ? this.sent.length - 1 : Math.max(0, this.recall - 1);
    else this.recall = this.recall < 0 ? -1 : this.recall + 1;
    if (this.recall >= this.sent.length) this.recall = -1;
    input.value = this.recall < 0 ? '' : (this.sent[this.recall] ?? '');
  }

  /**
   * A chat button: Roll20 asks its queries, then sends the command as the current speaker. The
   * page is busy from the press until the command is sent (or the question is cancelled).
   */
  private press(command: string, label: string): void {
    this.enqueue(async () => {
      await this.send(command, `${label}: Roll20 asks`);
    });
  }

  /**
   * Sends a line as Roll20's chat does, typed or a button's: its attribute calls filled in from the
   * selection and the sheets, its queries and targets asked in the dialog, then said by the current
   * speaker (the fight records the line as sent, so a replay asks nothing). A line that cannot be
   * filled in is not sent, and the log says why; a cancelled one sends nothing. True when sent.
   */
  private async send(line: string, title: string): Promise<boolean> {
    const fight = this.fight;
    const live = (ids: string[]) => ids.map((id) => fight.tokenById(id)).filter((t): t is MockObject => t !== undefined);
    const env = { mock: fight.mock, selection: live(fight.selection), tokens: live(fight.tokens().map((t) => t.id)) };
    const filled = await fillLine(line, env, (questions) => this.ask(title, line, questions));
    if (!filled.ok) {
      if (!filled.cancelled) this.systemNote(`Not sent: ${filled.error}`);
      this.render();
      return false;
    }
    const before = fight.edition();
    const said = await fight.say(filled.line);
    // A switch typed or clicked (the settings menu) gives the table the edition's values, as the Edition control does.
    if (said) await this.afterSwitch(before);
    this.render();
    return said;
  }

  /**
   * After a line that switched the edition: the demo table gets the new edition's sample values as
   * the GM's own edits (the script keeps values on a switch by design), and the log says which.
   */
  private async afterSwitch(before: Edition): Promise<void> {
    const now = this.fight.edition();
    if (now === before) return;
    const done = await exampleOf(now)?.setup(this.fight);
    if (done && (done.edits.length > 0 || done.nextTurn)) this.fight.note(this.setUpWords(now, done));
  }

  /** What a setup did, in words (mocks/sample-table.ts says the edits). */
  private setUpWords(edition: Edition, done: { edits: Parameters<typeof switchNote>[1]; nextTurn: boolean }): string {
    const edits = switchNote(edition, done.edits, 'The page');
    const turn = done.nextTurn ? "The page also moved the Turn Tracker on: the example's defense is made when it is not Bob's turn." : '';
    return [edits, turn].filter((part) => part !== undefined && part !== '').join(' ');
  }

  /** Says why a click selected nothing (a player selects only her own tokens); '' clears it. */
  private selectionNote(text: string): void {
    byId('selection-note').textContent = text;
  }

  /** A note from the page in the chat log (what Roll20 would show as a red line), not an alert. */
  private systemNote(text: string): void {
    const log = byId('log');
    log.append(h('li', { class: 'msg msg-system', attrs: { role: 'note' }, text }));
    log.scrollTop = log.scrollHeight;
    this.pinned = true;
  }

  /**
   * Asks the questions in the dialog, all at once; resolves to the answers by keyOf (a choice's value,
   * a target's token id), or undefined when cancelled (Cancel or Escape). A line with a target
   * leaves the page usable (a non-modal dialog): clicking a token, on the map or its card, answers
   * the first target not picked yet; when the targets were all there was to ask, that sends.
   */
  private ask(title: string, line: string, questions: Question[]): Promise<Map<string, string> | undefined> {
    const dialog = byId<HTMLDialogElement>('ask');
    const fields = byId('ask-fields');
    const status = byId('ask-status');
    byId('ask-title').textContent = title;
    const shown = byId('ask-line');
    shown.textContent = line.length > 300 ? `${line.slice(0, 299)}…` : line;
    shown.style.overflowWrap = 'anywhere';
    status.textContent = '';
    clear(fields);
    // A player picks among the tokens she can see: none on the GM layer (the map leaves them out too).
    const gm = this.fight.isGM(this.fight.speaker);
    const tokens = this.fight.tokens().filter((t) => gm || t.layer !== 'gmlayer');
    const picking = questions.some((q) => q.kind === 'target');
    byId('ask-hint').hidden = !picking;
    const inputs = questions.map((question, i) => {
      const id = `ask-${i}`;
      let control: HTMLInputElement | HTMLSelectElement;
      if (question.kind === 'text') {
        control = h('input', { id, attrs: { type: 'text', autocomplete: 'off', value: question.fallback } });
        control.value = question.fallback;
      } else if (question.kind === 'choice') {
        control = h('select', { id }, ...question.options.map((o, n) => h('option', { text: o.label, attrs: { value: String(n) } })));
      } else {
        control = h('select', { id, attrs: { 'aria-describedby': 'ask-hint' } }, ...tokens.map((t) => h('option', { text: t.name, attrs: { value: t.id } })));
        if (question.fallback !== undefined) control.value = question.fallback;
      }
      fields.append(h('p', {}, h('label', { attrs: { for: id }, text: question.prompt || 'Answer' }), control));
      return { question, control };
    });
    const targets = inputs.filter((input) => input.question.kind === 'target');
    const onlyTargets = targets.length === inputs.length;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return new Promise((resolve) => {
      let next = 0;
      const arm = () => {
        const entry = targets[next];
        this.pendingPick = entry
          ? (id: string) => {
              entry.control.value = id;
              next++;
              status.textContent = `${entry.question.prompt || 'Target'}: ${tokens.find((t) => t.id === id)?.name ?? id}`;
              if (next >= targets.length && onlyTargets) return dialog.close('send');
              arm();
              const after = targets[next]?.control ?? inputs.find((input) => input.question.kind !== 'target')?.control ?? dialog.querySelector<HTMLButtonElement>('button[value="send"]');
              after?.focus();
            }
          : undefined;
      };
      // A non-modal dialog has no Escape of its own: the page gives it one.
      const onKey = (event: KeyboardEvent) => {
        if (event.key !== 'Escape' || !dialog.open) return;
        event.preventDefault();
        dialog.close('cancel');
      };
      dialog.addEventListener(
        'close',
        () => {
          this.pendingPick = undefined;
          document.removeEventListener('keydown', onKey);
          for (const property of ['position', 'inset', 'margin', 'z-index', 'box-shadow']) dialog.style.removeProperty(property);
          const focus = document.activeElement;
          if (before?.isConnected && (focus === null || focus === document.body || dialog.contains(focus))) before.focus();
          if (dialog.returnValue !== 'send') return resolve(undefined);
          resolve(
            new Map(
              inputs.map(({ question, control }) => [keyOf(question), question.kind === 'choice' ? (question.options[Number(control.value)]?.value ?? '') : control.value]),
            ),
          );
        },
        { once: true },
      );
      dialog.returnValue = '';
      if (picking) {
        // Out of the way of the tokens, which stay clickable.
        Object.assign(dialog.style, { position: 'fixed', inset: 'auto 1rem 1rem auto', margin: '0', zIndex: '20', boxShadow: '0 0.4rem 1.6rem rgba(20, 16, 12, 0.35)' });
        dialog.show();
        document.addEventListener('keydown', onKey);
        arm();
      } else {
        dialog.showModal();
      }
      inputs[0]?.control.focus();
    });
  }

  private async share(): Promise<void> {
    this.updateAddress(false);
    const url = location.href;
    const out = byId('share-out');
    out.hidden = false;
    const link = byId<HTMLAnchorElement>('share-link');
    link.href = url;
    const field = byId<HTMLInputElement>('share-url');
    field.value = url;
    const status = byId('share-status');
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = 'Link copied.';
    } catch {
      status.textContent = 'Copy the link from the box.';
    }
    field.focus();
    field.select();
  }

  // ---- drawing ---------------------------------------------------------------------------------

  private render(push = false): void {
    const fight = this.fight;
    const speaker = byId<HTMLSelectElement>('speaker');
    if (speaker.options.length !== fight.playerNames().length) {
      clear(speaker);
      for (const name of fight.playerNames()) speaker.append(h('option', { text: fight.isGM(name) && name !== 'GM' ? `${name} (GM)` : name, attrs: { value: name } }));
    }
    speaker.value = fight.speaker;
    byId('chat-label').textContent = `Message as ${fight.speaker}${fight.isGM(fight.speaker) && fight.speaker !== 'GM' ? ' (GM)' : ''}`;
    const edition = fight.edition();
    byId<HTMLSelectElement>('edition').value = edition;
    document.body.dataset.edition = edition;
    const names = fight.selectionNames();
    byId('selected-names').textContent = names.length ? names.join(', ') : 'none';
    byId<HTMLButtonElement>('clear-selection').hidden = names.length === 0;
    const tokens = fight.tokens();
    this.renderTokens(tokens);
    this.sheet.refresh();
    this.map.render(tokens, fight.isGM(fight.speaker));
    this.renderTurns();
    this.renderExample(edition);
    this.renderSuggestions(edition);
    this.renderEntries();
    this.updateAddress(push);
  }

  private updateAddress(push: boolean): void {
    const fragment = fragmentOf(this.fight.spec());
    const url = `${location.pathname}${location.search}${fragment}`;
    this.lastFragment = fragment;
    if (location.hash === fragment && !push) return;
    // A fresh table leaves a fragment of the page's own (#top, say) where it is.
    if (fragment === '' && !push && !isFightFragment(location.hash)) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
    this.lastFragment = location.hash;
  }

  private renderEntries(): void {
    const log = byId('log');
    const consoleLog = byId('console-log');
    const fight = this.fight;
    let added = false;
    for (const entry of fight.entries) {
      if (this.shown.has(entry.id)) continue;
      if (entry.kind === 'chat') {
        const view = viewOf(entry.record);
        const selected = (entry.record.selected ?? []).map((s) => String(fight.tokenById(s._id)?.get('name') ?? s._id));
        const li = messageNode(view, this.handlers, selected);
        const sentBy = entry.record.playerid === 'API' ? 'API' : String(fight.mock.globals.getObj('player', entry.record.playerid)?.get('_displayname') ?? '');
        this.shown.set(entry.id, { li, view, sentBy });
        log.append(li);
        added = true;
      } else if (entry.kind === 'crash') {
        const li = h(
          'li',
          { class: 'msg msg-crash', attrs: { role: 'alert' } },
          h('strong', { text: `SANDBOX CRASH in ${entry.event}: in Roll20 every script in the game would stop here.` }),
          h('pre', { text: entry.stack }),
        );
        this.shown.set(entry.id, { li, view: { who: '', kind: 'general', fromScript: false, body: [], transient: false }, sentBy: '' });
        log.append(li);
        added = true;
      } else {
        const li = h('li', { class: `console-${entry.source}` }, h('span', { class: 'tag', text: entry.source === 'log' ? 'API log' : entry.source === 'warning' ? 'mock warning' : 'playground' }), ` ${entry.text}`);
        this.shown.set(entry.id, { li, view: { who: '', kind: 'general', fromScript: false, body: [], transient: false }, sentBy: '' });
        if (entry.source === 'playground') {
          log.append(h('li', { class: 'msg msg-system', attrs: { role: 'note' }, text: entry.text }));
          added = true;
        }
        consoleLog.append(li);
        this.consoleCount++;
      }
    }
    byId('console-count').textContent = String(this.consoleCount);
    const speaker = fight.speaker;
    const isGM = fight.isGM(speaker);
    for (const { li, view, sentBy } of this.shown.values()) {
      const hidden = hiddenFrom(view, speaker, isGM, sentBy);
      li.classList.toggle('unseen', hidden);
      const tag = li.querySelector<HTMLElement>('.tag-unseen');
      if (tag) {
        tag.hidden = !hidden;
        tag.textContent = hidden ? `${speaker} does not see this` : '';
      }
    }
    if (added) {
      log.scrollTop = log.scrollHeight;
      this.pinned = true;
    }
  }

  private renderTokens(tokens: TokenView[]): void {
    const list = byId('tokens');
    const gm = this.fight.isGM(this.fight.speaker);
    for (const token of tokens) {
      let card = this.cards.get(token.id);
      if (!card) {
        card = this.newCard(token);
        this.cards.set(token.id, card);
        list.append(card.li);
      }
      this.fillCard(card, token);
      // As on the map: a token on the GM layer is faded for the GM, and a player does not see it.
      const hidden = token.layer === 'gmlayer';
      card.li.classList.toggle('gm-layer', hidden && gm);
      card.li.hidden = hidden && !gm;
    }
  }

  /** A @{target|...} being asked: a token clicked (on the map or its card) answers it instead of selecting. */
  private pendingPick: ((id: string) => void) | undefined;

  /**
   * A token clicked on the map or on its card (or chosen from either by keyboard): it answers a
   * pending @{target|...} pick; otherwise it becomes the selection, as in Roll20 (`additive`, shift
   * held: it is added to the selection, or taken out of it).
   */
  tokenClicked(id: string, additive: boolean): void {
    if (this.pendingPick) {
      const pick = this.pendingPick;
      this.pendingPick = undefined;
      pick(id);
      return;
    }
    // As in Roll20: a click selects only that token (a selected one stays selected), shift adds or takes out.
    this.selectionNote(this.fight.select(id, additive) === undefined ? '' : `${this.fight.whyNotSelectable(this.fight.speaker, id)}.`);
    this.render();
  }

  private newCard(token: TokenView): Card {
    const nameId = `token-${this.cards.size}-name`;
    const title = h('h3', { id: nameId, class: 'token-name', text: token.name });
    const select = h('input', { attrs: { type: 'checkbox', 'aria-label': `Select ${token.name}` } });
    select.addEventListener('change', () => {
      const refused = this.fight.toggleSelected(token.id);
      this.selectionNote(refused === undefined ? '' : `${refused}.`);
      this.render();
    });
    const form = h('form', { class: 'edit-form' });
    const edit = h('details', { class: 'edit' }, h('summary', { text: 'Edit by hand', attrs: { 'aria-label': `Edit ${token.name} by hand` } }), form);
    edit.addEventListener('toggle', () => {
      if (edit.open) this.fillEditForm(form, token.id);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.applyEdits(form, token.id);
    });
    const sheetButton = h('button', { class: 'small sheet-open', text: 'Sheet', attrs: { type: 'button', 'aria-label': `Open ${token.character ?? token.name}'s sheet`, 'aria-haspopup': 'dialog' } });
    sheetButton.addEventListener('click', () => this.sheet.show(token.id));
    const card: Card = {
      li: h('li', { class: 'token', attrs: { 'data-token': token.name } }),
      title,
      owner: h('p', { class: 'owner' }),
      select,
      turn: h('span', { class: 'turn-badge', text: 'Turn', attrs: { title: 'First in the Turn Tracker' } }),
      bars: h('div', { class: 'bars' }),
      markers: h('ul', { class: 'markers', attrs: { 'aria-label': `Markers on ${token.name}` } }),
      sheet: h('dl', { class: 'sheet', attrs: { 'aria-label': `${token.name}'s armor and sheet` } }),
      edit,
      form,
      sheetButton,
    };
    const article = h(
      'article',
      { attrs: { 'aria-labelledby': nameId } },
      h('header', {}, h('span', { class: 'avatar', attrs: { 'aria-hidden': 'true' }, text: initials(token.name) }), h('div', { class: 'names' }, title, card.owner), card.turn, h('label', { class: 'select' }, select, h('span', { text: 'Select' }))),
      card.bars,
      card.markers,
      card.sheet,
      h('p', { class: 'sheet-link' }, sheetButton),
      edit,
    );
    // Clicking the card (not its controls) is clicking the token on the map: it selects only it (shift adds).
    article.addEventListener('click', (event) => {
      const target = event.target as HTMLElement;
      if (target.closest('input, select, button, summary, details, label, a, form')) return;
      this.tokenClicked(token.id, event.shiftKey);
    });
    card.li.append(article);
    return card;
  }

  private fillCard(card: Card, token: TokenView): void {
    card.li.classList.toggle('selected', token.selected);
    card.li.classList.toggle('on-turn', token.onTurn);
    card.title.textContent = token.name;
    card.owner.textContent = token.owner;
    card.select.checked = token.selected;
    card.turn.hidden = !token.onTurn;
    // As on Roll20: the GM opens any character's sheet, a player only one whose controllers list her.
    card.sheetButton.hidden = this.fight.sheetFor(this.fight.speaker, token.id) === undefined;
    (card.sheetButton.parentElement as HTMLElement).hidden = card.sheetButton.hidden;
    clear(card.bars);
    // The script keeps an NPC's numbers from players (the GM's visibility setting): the card says so instead.
    card.edit.hidden = token.numbersHidden;
    if (token.numbersHidden) {
      card.bars.append(h('p', { class: 'hidden-numbers', text: `Numbers hidden from ${this.fight.speaker}: the script shows them to the GM only (visibility.npc gm).` }));
    }
    for (const bar of token.bars) {
      const value = Number(bar.value);
      const max = Number(bar.max);
      const numeric = bar.value.trim() !== '' && Number.isFinite(value);
      const row = h('div', { class: `bar bar-${bar.resource}` }, h('span', { class: 'bar-label', text: bar.label }), h('span', { class: 'bar-num', text: numeric ? `${bar.value} / ${bar.max || '?'}` : '—' }));
      if (numeric) {
        const top = Number.isFinite(max) && max > 0 ? max : Math.max(value, 1);
        row.setAttribute('role', 'meter');
        row.setAttribute('aria-label', bar.label);
        row.setAttribute('aria-valuemin', String(Math.min(0, value)));
        row.setAttribute('aria-valuemax', String(Math.max(top, value)));
        row.setAttribute('aria-valuenow', String(value));
        row.setAttribute('aria-valuetext', `${bar.value} of ${bar.max || 'no max'}`);
        const fill = h('span', { class: 'bar-fill' });
        fill.style.width = `${Math.max(0, Math.min(100, (value / top) * 100))}%`;
        row.append(h('span', { class: 'bar-track', attrs: { 'aria-hidden': 'true' } }, fill));
        if (value <= 0) row.classList.add('bar-down');
      } else {
        row.setAttribute('aria-label', `${bar.label}: none`);
      }
      card.bars.append(row);
    }
    clear(card.markers);
    for (const marker of token.markers) {
      // An icon, what the marker means to the script, and Roll20's name for it.
      const roll20 = markerBase(marker.name).base;
      card.markers.append(
        h(
          'li',
          { class: `marker marker-${marker.meaning ?? 'other'}`, attrs: { 'data-marker': roll20, title: `Roll20 marker "${marker.name}"` } },
          markerIcon(marker.name),
          marker.meaning ? h('span', { class: 'marker-meaning', text: marker.meaning }) : null,
          h('span', { class: 'marker-name' }, marker.meaning ? h('span', { class: 'visually-hidden', text: ', Roll20 marker ' }) : null, marker.name),
        ),
      );
    }
    card.markers.hidden = token.markers.length === 0;
    clear(card.sheet);
    for (const value of token.sheet) {
      const shown = value.current === '' ? '—' : value.hasMax && value.max !== '' ? `${value.current}/${value.max}` : value.current;
      // A value of the token's own (worn armor, a value set for it) says so: the sheet holds another.
      const own = value.own === 'worn' ? 'worn on this token' : value.own === 'set' ? 'set for this token' : undefined;
      card.sheet.append(h('div', { attrs: { title: own ? `${value.attribute}: ${own}` : value.attribute } }, h('dt', { text: value.label }), h('dd', { text: shown }, ...(own ? [h('small', { class: 'own', text: ` (${own})` })] : []))));
    }
    card.sheet.hidden = token.sheet.length === 0;
    if (card.edit.open && !card.form.contains(document.activeElement)) this.fillEditForm(card.form, token.id);
  }

  private fillEditForm(form: HTMLFormElement, id: string): void {
    const token = this.fight.tokens().find((t) => t.id === id);
    if (!token) return;
    clear(form);
    let n = 0;
    const field = (label: string, name: string, value: string) => {
      const inputId = `edit-${id}-${n++}`;
      return h('p', { class: 'field' }, h('label', { attrs: { for: inputId }, text: label }), h('input', { id: inputId, attrs: { name, value, inputmode: 'numeric', autocomplete: 'off', 'data-was': value } }));
    };
    const bars = h('fieldset', {}, h('legend', { text: 'Bars (typed into the token)' }));
    for (const bar of token.bars) append(bars, field(bar.label, `${bar.bar}_value`, bar.value), field(`${bar.label} max`, `${bar.bar}_max`, bar.max));
    form.append(bars);
    if (token.character) {
      const sheet = h('fieldset', {}, h('legend', { text: `${token.character}'s sheet` }));
      for (const value of token.sheet) {
        sheet.append(field(value.label, `sheet:${value.attribute}:current`, value.current));
        if (value.hasMax) sheet.append(field(`${value.label} max`, `sheet:${value.attribute}:max`, value.max ?? ''));
      }
      form.append(sheet);
    }
    form.append(h('button', { text: 'Apply', attrs: { type: 'submit' } }));
  }

  private applyEdits(form: HTMLFormElement, id: string): void {
    const token = this.fight.tokens().find((t) => t.id === id);
    if (!token) return;
    const bars: Partial<Record<BarKey, string>> = {};
    const sheet = new Map<string, { current?: string; max?: string }>();
    for (const input of form.querySelectorAll<HTMLInputElement>('input[name]')) {
      if (input.value === input.dataset.was) continue;
      const name = input.name;
      if ((BAR_KEYS as readonly string[]).includes(name)) bars[name as BarKey] = input.value.trim();
      else {
        const [, attribute = '', part] = name.split(':');
        const entry = sheet.get(attribute) ?? {};
        if (part === 'max') entry.max = input.value.trim();
        else entry.current = input.value.trim();
        sheet.set(attribute, entry);
      }
    }
    this.act(async () => {
      for (const [attribute, entry] of sheet) await this.fight.editSheet(token.character!, attribute, entry.current, entry.max);
      if (Object.keys(bars).length > 0) await this.fight.editBars(token.name, bars);
      const card = this.cards.get(id);
      if (card) this.fillEditForm(card.form, id);
    });
  }

  private renderTurns(): void {
    const list = byId('turn-list');
    clear(list);
    const turns = this.fight.turnOrder();
    for (const turn of turns) {
      list.append(h('li', { class: turn.current ? 'current' : '', attrs: turn.current ? { 'aria-current': 'true' } : {} }, h('span', { class: 'turn-name', text: turn.name }), h('span', { class: 'turn-pr', text: turn.pr })));
    }
    byId('turns-empty').hidden = turns.length > 0;
  }

  private renderExample(edition: Edition): void {
    const box = byId('example-body');
    if (box.dataset.edition === edition) return;
    box.dataset.edition = edition;
    // An edition whose sample gives no worked example is played without one.
    const example = exampleOf(edition);
    byId('example').hidden = example === undefined;
    if (example === undefined) return;
    byId('example-title').textContent = `Try the rules' example: ${example.title}`;
    byId('example-setup-text').textContent = example.setupText;
    // The demo table starts as a new game's edition has it (mocks/scene.ts): nothing to set up there.
    byId<HTMLButtonElement>('example-setup').hidden = edition === DEFAULT_EDITION;
    const moves = byId('example-moves');
    clear(moves);
    for (const move of example.moves) {
      moves.append(
        h(
          'li',
          {},
          h('p', { text: `${move.says}:` }),
          h('p', {}, h('code', { text: move.line }), ' ', h('button', { text: 'Put in the chat box', attrs: { type: 'button', 'aria-label': `Put ${move.line} in the chat box, with Bob selected` }, on: { click: () => this.prepare(move.line) } })),
          h('p', { class: 'expect', text: `The rules say: ${move.expect}.` }),
        ),
      );
    }
    if (example.attack) moves.append(this.attackItem(example.attack));
  }

  /** The exchange to try: the edition's attack macro, put in the chat box as the GM with the attacker selected. */
  private attackItem(move: ExampleMove): HTMLLIElement {
    const who = move.selected ?? 'Bob';
    return h(
      'li',
      { class: 'attack-move' },
      h('p', { text: `${move.says}:` }),
      h('p', {}, h('code', { text: move.line }), ' ', h('button', { text: 'Put in the chat box', attrs: { type: 'button', 'aria-label': `Put the attack macro in the chat box, with ${who} selected` }, on: { click: () => this.prepare(move.line, who) } })),
      h('p', { class: 'expect', text: `Then ${move.expect}.` }),
    );
  }

  /** The chat box's suggestions and the flags hint, from the edition's specs; redrawn only when the edition changes. */
  private renderSuggestions(edition: Edition): void {
    const list = byId('chat-suggestions');
    if (list.dataset.edition === edition) return;
    list.dataset.edition = edition;
    clear(list);
    for (const line of suggestionsOf(edition)) list.append(h('option', { attrs: { value: line } }));
    const body = byId('chat-flags-body');
    clear(body);
    const hints = flagHintsOf(edition);
    byId('chat-flags').hidden = hints.length === 0;
    byId('chat-flags-title').textContent = `Flags in this edition (${edition})`;
    for (const hint of hints) {
      body.append(h('h3', {}, h('code', { text: hint.command })), h('ul', { attrs: { 'aria-label': `${hint.command} flags` } }, ...hint.lines.map((line) => h('li', { text: line }))));
    }
  }

  /** A move in the chat box with its token selected; the GM says it when the speaker may not select that token. */
  private prepare(line: string, who = 'Bob'): void {
    const token = this.fight.tokenNamed(who);
    if (token) {
      if (this.fight.whyNotSelectable(this.fight.speaker, token.id) !== undefined) this.fight.speaker = 'GM';
      this.fight.selection = [token.id];
      this.selectionNote('');
    }
    this.render();
    const input = byId<HTMLInputElement>('chat-input');
    input.value = line;
    input.focus();
  }
}


export { inlineNodes };
