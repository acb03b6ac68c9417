// The character sheet opened from a token's card: the campaign's sheet (sheet/defense-round.html
// and .css, inlined by build.mjs into a <template> and a style), its fields bound to the
// character's attributes on the playground's table, its worker script running through
// mocks/sheetWorkers.ts against the same attributes. An edit (by hand, or a worker's setAttrs) is
// the attribute changed as a user's edit changes it: a step of the fight, so Roll20's change
// events reach the script and a share link replays it. Its roll buttons send their line to the
// chat as the current speaker; its action buttons fire the workers' clicked: event.
import { runSheetWorkers, type SheetAttributes, type SheetWorkers } from '../../../mocks/sheetWorkers.js';
import type { Fight } from '../fight.js';
import { byId, clear } from './dom.js';

/** What the panel asks of the page. */
export interface SheetHost {
  fight(): Fight;
  /** Runs a step in the page's queue (then redraws the page). */
  act(action: () => Promise<unknown>): void;
  /** A button's line, sent as the current speaker (queries asked first). */
  press(line: string, label: string): void;
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface SheetData {
  legacy: boolean;
  translation: Record<string, string>;
}

/** The attribute a field names: `attr_armor_physical` -> armor_physical (lower-cased: Roll20's names ignore case). */
function attrName(element: Element): string | undefined {
  const name = element.getAttribute('name') ?? '';
  return /^attr_/i.test(name) ? name.slice(5).toLowerCase() : undefined;
}

export class SheetPanel {
  private tokenId: string | undefined;
  private character: string | undefined;
  private workers: SheetWorkers | undefined;
  /** Values written and not yet on the table (their step waits in the page's queue): read first. */
  private readonly pending = new Map<string, string>();
  /** Each field's default, from the sheet's HTML: what Roll20 shows and the workers read for an attribute not yet made. */
  private readonly defaults = new Map<string, string>();
  private readonly data: SheetData;

  constructor(private readonly host: SheetHost) {
    const raw = document.getElementById('sheet-data')?.textContent ?? '{}';
    const parsed = JSON.parse(raw) as Partial<SheetData>;
    this.data = { legacy: parsed.legacy === true, translation: parsed.translation ?? {} };
    const dialog = byId<HTMLDialogElement>('sheet-dialog');
    byId('sheet-close').addEventListener('click', () => this.close());
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.close();
      }
    });
  }

  /** The character whose sheet is open, if any. */
  get open(): string | undefined {
    return this.character;
  }

  /** Opens the sheet of the token's character (the card offers it only where the speaker may). */
  show(tokenId: string): void {
    const fight = this.host.fight();
    const character = fight.sheetFor(fight.speaker, tokenId);
    if (character === undefined) return;
    this.close();
    this.tokenId = tokenId;
    this.character = character;
    const body = byId('sheet-body');
    clear(body);
    const template = byId<HTMLTemplateElement>('sheet-template');
    body.append(document.importNode(template.content, true));
    this.prepare(body);
    byId('sheet-dialog-title').textContent = `${character}'s sheet`;
    const store: SheetAttributes = {
      get: (name) => this.read(name),
      set: (name, value) => this.write(name, value),
    };
    // The runtime takes the sheet's HTML and runs its one worker script (the fields' defaults are the store's).
    this.workers = runSheetWorkers(`<script type="text/worker">${byId('sheet-workers').textContent ?? ''}</script>`, store);
    this.refresh();
    const dialog = byId<HTMLDialogElement>('sheet-dialog');
    if (!dialog.open) dialog.show();
    this.workers.open();
    this.refresh();
    byId('sheet-close').focus();
  }

  close(): void {
    const dialog = byId<HTMLDialogElement>('sheet-dialog');
    if (dialog.open) dialog.close();
    clear(byId('sheet-body'));
    this.tokenId = undefined;
    this.character = undefined;
    this.workers = undefined;
    this.pending.clear();
    this.defaults.clear();
  }

  /** After every step: the fields show the table's values; a speaker who may no longer open the sheet sees it close. */
  refresh(): void {
    if (this.character === undefined || this.tokenId === undefined) return;
    const fight = this.host.fight();
    if (fight.sheetFor(fight.speaker, this.tokenId) !== this.character) return this.close();
    const body = byId('sheet-body');
    for (const element of body.querySelectorAll<HTMLElement>('[name]')) {
      const name = attrName(element);
      if (name === undefined || element === document.activeElement) continue;
      this.show1(element, this.read(name) ?? '');
    }
  }

  // ---- the sheet's markup ----------------------------------------------------------------------

  /** Roll20's own pass over a sheet: legacy class prefixes, translations, defaults, and the controls wired. */
  private prepare(body: HTMLElement): void {
    const { legacy, translation } = this.data;
    for (const element of body.querySelectorAll<HTMLElement>('*')) {
      if (legacy) {
        // A legacy sheet's classes get Roll20's "sheet-" prefix (its CSS names them so).
        for (const name of [...element.classList]) {
          if (!name.startsWith('sheet-') && name !== 'repcontainer') {
            element.classList.remove(name);
            element.classList.add(`sheet-${name}`);
          }
        }
      }
      const key = element.getAttribute('data-i18n');
      if (key !== null && translation[key] !== undefined) element.textContent = translation[key];
      for (const attribute of ['placeholder', 'title', 'aria-label', 'label']) {
        const k = element.getAttribute(`data-i18n-${attribute}`);
        if (k !== null && translation[k] !== undefined) element.setAttribute(attribute, translation[k]);
      }
    }
    for (const element of body.querySelectorAll<HTMLElement>('input, select, textarea, span')) {
      const name = attrName(element);
      if (name === undefined) continue;
      if (!this.defaults.has(name)) this.defaults.set(name, this.defaultOf(element));
      if (element instanceof HTMLSpanElement) continue;
      const field = element as Field;
      field.addEventListener('change', () => this.edited(name, field));
    }
    for (const button of body.querySelectorAll<HTMLButtonElement>('button')) {
      const type = (button.getAttribute('type') ?? '').toLowerCase();
      if (type !== 'roll' && type !== 'action') continue;
      button.addEventListener('click', (event) => {
        event.preventDefault();
        if (type === 'roll') this.roll(button);
        else this.action(button);
      });
    }
  }

  private defaultOf(element: HTMLElement): string {
    if (element instanceof HTMLSpanElement) return element.textContent ?? '';
    if (element instanceof HTMLSelectElement) return element.value;
    if (element instanceof HTMLTextAreaElement) return element.value;
    const input = element as HTMLInputElement;
    if (input.type === 'checkbox') return input.checked ? input.value : '0';
    if (input.type === 'radio') return input.checked ? input.value : '';
    return input.getAttribute('value') ?? '';
  }

  /** One field shows a value. */
  private show1(element: HTMLElement, value: string): void {
    if (element instanceof HTMLSpanElement) element.textContent = value;
    else if (element instanceof HTMLInputElement && element.type === 'checkbox') element.checked = value !== '' && value === (element.getAttribute('value') ?? 'on');
    else if (element instanceof HTMLInputElement && element.type === 'radio') element.checked = value === element.value;
    else (element as Field).value = value;
  }

  // ---- the attributes ------------------------------------------------------------------------

  /** The attribute store the workers and the fields read: a value on its way first, then the table, then the sheet's default. */
  private read(name: string): string | undefined {
    const key = name.toLowerCase();
    if (this.pending.has(key)) return this.pending.get(key);
    const character = this.character;
    if (character === undefined) return undefined;
    return this.host.fight().sheetField(character, key) ?? this.defaults.get(key);
  }

  /** A value written (a field edited, or a worker's setAttrs): on the table as a user's edit, in the page's queue. */
  private write(name: string, value: string): void {
    const key = name.toLowerCase();
    const character = this.character;
    if (character === undefined) return;
    if (this.read(key) === value && this.host.fight().sheetField(character, key) !== undefined) return;
    this.pending.set(key, value);
    const fight = this.host.fight();
    this.host.act(async () => {
      await fight.editSheetField(character, key, value);
      if (this.pending.get(key) === value) this.pending.delete(key);
    });
    for (const element of byId('sheet-body').querySelectorAll<HTMLElement>('[name]')) {
      if (attrName(element) === key && element !== document.activeElement) this.show1(element, value);
    }
  }

  /** A field changed by hand: the attribute set, then the workers told (Roll20's change:NAME, sourceType player). */
  private edited(name: string, field: Field): void {
    let value = field.value;
    if (field instanceof HTMLInputElement && field.type === 'checkbox') value = field.checked ? field.value : '0';
    const previous = this.read(name);
    this.write(name, value);
    this.workers?.changed(name, previous);
  }

  // ---- buttons -------------------------------------------------------------------------------

  /** A roll button: its value, the character's own @{NAME} made @{Character|NAME}, sent as the current speaker. */
  private roll(button: HTMLButtonElement): void {
    const character = this.character;
    const value = button.getAttribute('value') ?? '';
    if (character === undefined || value.trim() === '') return;
    const line = value.replace(/@\{([^|{}]+)\}/g, (_all, name: string) => `@{${character}|${name.trim()}}`);
    this.host.press(line, `${character}'s sheet: ${button.textContent?.trim() || button.getAttribute('name') || 'roll'}`);
  }

  /** An action button: the workers' clicked:NAME (act_NAME), when the runtime has it. */
  private action(button: HTMLButtonElement): void {
    const name = (button.getAttribute('name') ?? '').replace(/^act_/i, '');
    const workers = this.workers as (SheetWorkers & { clicked?: (name: string) => void }) | undefined;
    if (name !== '' && typeof workers?.clicked === 'function') workers.clicked(name);
  }
}
