// The table as Roll20 draws it: the demo page on its grid, an inline SVG. Each token sits at its
// place (Roll20's left/top are its centre, in pixels, 70 a grid square), with its name, its three
// bars above it and its status markers as small icons; it is a button: click it (shift+click to
// add or take it out), or Tab to it and press Enter or Space (Shift+Enter to add). The token cards
// stay the detailed, accessible view; this is the picture. Text nodes only, never markup.
import type { TokenView } from '../fight.js';
import { initials } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Roll20's grid square, in pixels. */
export const GRID = 70;
const BAR_HEIGHT = 6;
const BAR_GAP = 2;
const MARKER = 16;

type Attrs = Record<string, string | number | undefined>;

/** An SVG element: attributes set one by one, text as a text node. */
function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Array<Node | string | null | undefined>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) element.setAttribute(name, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

// ---- marker glyphs ---------------------------------------------------------------------------------

/** Roll20's colour markers are plain dots of their colour. */
const COLOR_MARKERS: Record<string, string> = {
  red: '#c0392b',
  blue: '#2e6fb7',
  green: '#2f8a4c',
  brown: '#7a4a24',
  purple: '#6b2f8f',
  pink: '#d45a9a',
  yellow: '#e2b714',
};

/** The marker's background colour and its white glyph, drawn in a 16 by 16 box. */
const GLYPHS: Record<string, { bg: string; draw: (bg: string) => SVGElement[] }> = {
  // Incapacitated: asleep, a crescent moon.
  sleepy: { bg: '#4b5d99', draw: () => [s('path', { d: 'M10.2 2.6A5.6 5.6 0 1 0 13.4 11.3 4.4 4.4 0 1 1 10.2 2.6Z', fill: '#fff' })] },
  // Dying: a skull.
  'death-zone': { bg: '#6b1d1d', draw: skull },
  skull: { bg: '#3b3632', draw: skull },
  // Dead: Roll20's red cross (drawn over the whole token too).
  dead: { bg: '#a4161a', draw: () => [s('path', { d: 'M4.2 4.2 11.8 11.8M11.8 4.2 4.2 11.8', stroke: '#fff', 'stroke-width': 2.6, 'stroke-linecap': 'round', fill: 'none' })] },
  // Defensive stance: a shield with a bolt.
  'bolt-shield': {
    bg: '#1f5f8b',
    draw: (bg) => [
      s('path', { d: 'M8 1.8 13.2 3.7V8c0 3.3-2.3 5.2-5.2 6.4C5.1 13.2 2.8 11.3 2.8 8V3.7Z', fill: '#fff' }),
      s('path', { d: 'M8.9 3.9 5.6 8.6H7.9L7.1 12.2 10.4 7.4H8.1Z', fill: bg }),
    ],
  },
  // Reactive stance: a fist.
  fist: {
    bg: '#8a4b08',
    draw: (bg) => [
      s('rect', { x: 3.4, y: 4.2, width: 9.2, height: 8, rx: 2.2, fill: '#fff' }),
      s('path', { d: 'M5.7 4.4V7.6M8 4.4V7.6M10.3 4.4V7.6M3.6 9.3H8.4', stroke: bg, 'stroke-width': 1.1, fill: 'none', 'stroke-linecap': 'round' }),
    ],
  },
  // Active stance: forward, fast.
  overdrive: { bg: '#b7791f', draw: () => [s('path', { d: 'M3.4 4 7.4 8 3.4 12M8.4 4 12.4 8 8.4 12', stroke: '#fff', 'stroke-width': 2, fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' })] },
  // Full defense: strong, a dumbbell.
  strong: {
    bg: '#1f6f43',
    draw: () => [
      s('rect', { x: 2.6, y: 4.6, width: 2.8, height: 6.8, rx: 0.8, fill: '#fff' }),
      s('rect', { x: 10.6, y: 4.6, width: 2.8, height: 6.8, rx: 0.8, fill: '#fff' }),
      s('rect', { x: 5.2, y: 7.2, width: 5.6, height: 1.6, fill: '#fff' }),
    ],
  },
};

function skull(bg: string): SVGElement[] {
  return [
    s('circle', { cx: 8, cy: 7, r: 4.6, fill: '#fff' }),
    s('rect', { x: 5.6, y: 9.4, width: 4.8, height: 3.8, rx: 1, fill: '#fff' }),
    s('circle', { cx: 6.3, cy: 7.2, r: 1.25, fill: bg }),
    s('circle', { cx: 9.7, cy: 7.2, r: 1.25, fill: bg }),
    s('path', { d: 'M7 11.4V13.2M9 11.4V13.2', stroke: bg, 'stroke-width': 0.8 }),
  ];
}

/** Roll20's marker name without its number ("fist@2" is "fist" showing 2). */
export function markerBase(marker: string): { base: string; count?: string } {
  const match = /^(.*)@(\d+)$/.exec(marker);
  return match ? { base: match[1]!, count: match[2]! } : { base: marker };
}

/** A marker's icon in a 16 by 16 box: its colour, its glyph (a plain dot for the ones without one), its number. */
function glyph(marker: string): SVGGElement {
  const { base, count } = markerBase(marker);
  const group = s('g', { class: 'marker-glyph' });
  const colour = COLOR_MARKERS[base];
  if (colour !== undefined) {
    group.append(s('circle', { cx: 8, cy: 8, r: 7.2, fill: colour, stroke: '#fff', 'stroke-width': 1.4 }));
  } else {
    const known = GLYPHS[base];
    const bg = known?.bg ?? '#4a4540';
    group.append(s('circle', { cx: 8, cy: 8, r: 7.6, fill: bg, stroke: '#fff', 'stroke-width': 0.8 }));
    group.append(...(known ? known.draw(bg) : [s('circle', { cx: 8, cy: 8, r: 2.6, fill: '#fff' })]));
  }
  if (count !== undefined) {
    group.append(s('text', { x: 15.5, y: 15.5, 'text-anchor': 'end', class: 'marker-count' }, count));
  }
  return group;
}

/** The marker as an icon for a card: decorative (the card says its name in words). */
export function markerIcon(marker: string, size = 16): SVGSVGElement {
  return s('svg', { class: 'marker-icon', viewBox: '0 0 16 16', width: size, height: size, 'aria-hidden': 'true', focusable: 'false' }, glyph(marker));
}

// ---- the map ----------------------------------------------------------------------------------------

interface Placed {
  g: SVGGElement;
  token: TokenView;
}

export class TableMap {
  readonly svg: SVGSVGElement;
  private readonly grid: SVGGElement;
  private readonly layer: SVGGElement;
  private readonly tip: SVGGElement;
  private readonly tipBox: SVGRectElement;
  private readonly tipText: SVGTextElement;
  private readonly placed = new Map<string, Placed>();
  private box = '';

  /**
   * @param host where the map goes
   * @param labelledBy the id of the map's heading (its accessible name)
   * @param onToken a token clicked or chosen by keyboard; `additive` when shift is held
   * @param describedBy the id of a note on how to use it
   */
  constructor(host: HTMLElement, labelledBy: string, private readonly onToken: (id: string, additive: boolean) => void, describedBy?: string) {
    this.grid = s('g', { class: 'map-grid', 'aria-hidden': 'true' });
    this.layer = s('g', { class: 'map-tokens' });
    this.tipBox = s('rect', { rx: 4 });
    this.tipText = s('text', {});
    this.tip = s('g', { class: 'map-tip', 'aria-hidden': 'true', visibility: 'hidden' }, this.tipBox, this.tipText);
    this.svg = s('svg', { class: 'map', role: 'group', 'aria-labelledby': labelledBy, 'aria-describedby': describedBy, viewBox: '0 0 560 280' }, this.grid, this.layer, this.tip);
    host.append(this.svg);
  }

  /** A fresh table: every token drawn anew. */
  clear(): void {
    this.placed.clear();
    this.layer.replaceChildren();
    this.hideTip();
  }

  /**
   * Draws the tokens the viewer sees: the token layer, and the GM layer (faded) for a GM only.
   * Each token keeps its element from render to render, so the one focused stays focused.
   */
  render(tokens: TokenView[], viewerIsGM: boolean): void {
    const shown = tokens.filter((t) => t.layer === 'objects' || (t.layer === 'gmlayer' && viewerIsGM));
    const wanted = new Set(shown.map((t) => t.id));
    for (const [id, placed] of this.placed) {
      if (wanted.has(id)) continue;
      placed.g.remove();
      this.placed.delete(id);
    }
    this.fit(shown);
    // In the tokens' order (the tab order); an element already in place is never moved (moving blurs it).
    let at: ChildNode | null = this.layer.firstChild;
    for (const token of shown) {
      let placed = this.placed.get(token.id);
      if (!placed) {
        placed = { g: this.newToken(token.id), token };
        this.placed.set(token.id, placed);
      }
      placed.token = token;
      this.draw(placed.g, token);
      if (placed.g === at) at = placed.g.nextSibling;
      else this.layer.insertBefore(placed.g, at);
    }
    const focused = document.activeElement;
    if (focused instanceof SVGGElement && this.layer.contains(focused)) this.focusTip(focused);
    else this.hideTip();
  }

  /** The view box: the tokens and a little room around them, on whole grid squares; at least 5 by 3. */
  private fit(tokens: TokenView[]): void {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const t of tokens) {
      x0 = Math.min(x0, t.left - t.width / 2);
      x1 = Math.max(x1, t.left + t.width / 2);
      // Room for the bars above and the name below.
      y0 = Math.min(y0, t.top - t.height / 2 - 3 * (BAR_HEIGHT + BAR_GAP));
      y1 = Math.max(y1, t.top + t.height / 2 + 18);
    }
    if (tokens.length === 0) [x0, y0, x1, y1] = [0, 0, 8 * GRID, 4 * GRID];
    const room = GRID / 4;
    const left = Math.max(0, Math.floor((x0 - room) / GRID) * GRID);
    const top = Math.max(0, Math.floor((y0 - room) / GRID) * GRID);
    const right = Math.max(left + 5 * GRID, Math.ceil((x1 + room) / GRID) * GRID);
    const bottom = Math.max(top + 3 * GRID, Math.ceil((y1 + room) / GRID) * GRID);
    const box = `${left} ${top} ${right - left} ${bottom - top}`;
    if (box === this.box) return;
    this.box = box;
    this.svg.setAttribute('viewBox', box);
    this.grid.replaceChildren(s('rect', { class: 'map-page', x: left, y: top, width: right - left, height: bottom - top }));
    const lines: string[] = [];
    for (let x = left; x <= right; x += GRID) lines.push(`M${x} ${top}V${bottom}`);
    for (let y = top; y <= bottom; y += GRID) lines.push(`M${left} ${y}H${right}`);
    this.grid.append(s('path', { class: 'map-lines', d: lines.join('') }));
  }

  private newToken(id: string): SVGGElement {
    const g = s('g', { class: 'map-token', role: 'button', tabindex: 0, 'data-id': id });
    g.addEventListener('click', (event) => this.onToken(id, event.shiftKey));
    g.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      if (!event.repeat) this.onToken(id, event.shiftKey);
    });
    g.addEventListener('focus', () => this.focusTip(g));
    g.addEventListener('blur', () => this.hideTip());
    return g;
  }

  /** The token drawn anew inside its element: body, ring, bars, name, markers. */
  private draw(g: SVGGElement, token: TokenView): void {
    const { left: cx, top: cy, width: w, height: h } = token;
    const hidden = token.layer === 'gmlayer';
    g.setAttribute('data-token', token.name);
    g.setAttribute('aria-pressed', String(token.selected));
    g.setAttribute('aria-label', describe(token));
    g.classList.toggle('selected', token.selected);
    g.classList.toggle('gm-layer', hidden);
    g.classList.toggle('on-turn', token.onTurn);
    g.replaceChildren();
    const r = Math.min(w, h) / 2;
    const kind = token.character === undefined ? 'object' : token.owner.endsWith("'s PC") ? 'pc' : 'npc';
    g.append(s('rect', { class: 'focus-ring', x: cx - w / 2 - 7, y: cy - h / 2 - 3 * (BAR_HEIGHT + BAR_GAP) - 5, width: w + 14, height: h + 3 * (BAR_HEIGHT + BAR_GAP) + 28, rx: 8 }));
    if (token.selected) g.append(s('circle', { class: 'select-ring', cx, cy, r: r + 3.5 }));
    if (kind === 'object') g.append(s('rect', { class: `token-body token-${kind}`, x: cx - r + 5, y: cy - r + 5, width: 2 * r - 10, height: 2 * r - 10, rx: 6 }));
    else g.append(s('circle', { class: `token-body token-${kind}`, cx, cy, r: r - 3 }));
    g.append(s('text', { class: 'token-initials', x: cx, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, initials(token.name)));
    if (token.markers.some((m) => markerBase(m.name).base === 'dead')) {
      const d = r * 0.75;
      g.append(s('path', { class: 'dead-cross', d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}` }));
    }
    // The bars above the token, as Roll20 draws them.
    const barWidth = w - 8;
    token.bars.forEach((bar, i) => {
      const y = cy - h / 2 - (3 - i) * (BAR_HEIGHT + BAR_GAP);
      const x = cx - barWidth / 2;
      const value = Number(bar.value);
      const max = Number(bar.max);
      const numeric = bar.value.trim() !== '' && Number.isFinite(value);
      const fraction = !numeric ? 0 : Number.isFinite(max) && max > 0 ? Math.max(0, Math.min(1, value / max)) : value > 0 ? 1 : 0;
      const said = numeric ? `${bar.label} ${bar.value} of ${bar.max || 'no max'}` : `${bar.label}: none`;
      g.append(
        s(
          'g',
          { class: `map-bar map-bar-${bar.resource}` },
          s('title', {}, said),
          s('rect', { class: 'map-bar-track', x, y, width: barWidth, height: BAR_HEIGHT, rx: 2 }),
          fraction > 0 ? s('rect', { class: 'map-bar-fill', x, y, width: barWidth * fraction, height: BAR_HEIGHT, rx: 2 }) : null,
        ),
      );
    });
    g.append(s('text', { class: 'token-name', x: cx, y: cy + h / 2 + 13, 'text-anchor': 'middle' }, token.name));
    // The markers along the token's top edge, right to left, as Roll20 lays them out.
    const perRow = Math.max(1, Math.floor(w / MARKER));
    token.markers.forEach((marker, i) => {
      const { base } = markerBase(marker.name);
      const x = cx + w / 2 - MARKER * ((i % perRow) + 1);
      const y = cy - h / 2 + MARKER * Math.floor(i / perRow);
      const icon = s('g', { class: 'map-marker', 'data-marker': base, 'aria-label': base, transform: `translate(${x} ${y})` }, s('title', {}, base), glyph(marker.name));
      icon.addEventListener('pointerenter', () => this.showTip(base, x + MARKER / 2, tipLine(token)));
      icon.addEventListener('pointerleave', () => this.hideTip());
      g.append(icon);
    });
  }

  /** A token focused from the keyboard shows its markers' Roll20 names. */
  private focusTip(g: SVGGElement): void {
    const placed = [...this.placed.values()].find((p) => p.g === g);
    if (!placed || !g.matches(':focus-visible') || placed.token.markers.length === 0) return this.hideTip();
    const { token } = placed;
    this.showTip(token.markers.map((m) => m.name).join(', '), token.left, tipLine(token));
  }

  private showTip(text: string, x: number, y: number): void {
    this.tipText.textContent = text;
    this.tipText.setAttribute('x', String(x));
    this.tipText.setAttribute('y', String(y));
    this.tipText.setAttribute('text-anchor', 'middle');
    this.tip.setAttribute('visibility', 'visible');
    const box = this.tipText.getBBox();
    // Kept inside the map.
    const [vx = 0, vy = 0, vw = 0, vh = 0] = this.box.split(' ').map(Number);
    const dx = Math.max(vx + 2 - box.x, Math.min(0, vx + vw - 2 - (box.x + box.width)));
    const dy = Math.max(vy + 4 - box.y, Math.min(0, vy + vh - 2 - (box.y + box.height + 3)));
    this.tip.setAttribute('transform', `translate(${dx} ${dy})`);
    this.tipBox.setAttribute('x', String(box.x - 5));
    this.tipBox.setAttribute('y', String(box.y - 3));
    this.tipBox.setAttribute('width', String(box.width + 10));
    this.tipBox.setAttribute('height', String(box.height + 6));
  }

  private hideTip(): void {
    this.tip.setAttribute('visibility', 'hidden');
  }
}

/** A tip's baseline: above the token's bars, clear of the token. */
function tipLine(token: TokenView): number {
  return token.top - token.height / 2 - 3 * (BAR_HEIGHT + BAR_GAP) - 8;
}

/** What a token button says: its name first, then its bars, its markers, its layer, its turn. */
function describe(token: TokenView): string {
  const parts = [token.name];
  const bars = token.bars.map((b) => (b.value.trim() === '' ? `${b.label} none` : `${b.label} ${b.value} of ${b.max || 'no max'}`));
  if (bars.length) parts.push(bars.join(', '));
  else if (token.numbersHidden) parts.push('its numbers hidden from players');
  if (token.markers.length) parts.push(`markers: ${token.markers.map((m) => (m.meaning ? `${m.name} (${m.meaning})` : m.name)).join(', ')}`);
  if (token.layer === 'gmlayer') parts.push('on the GM layer, hidden from the players');
  if (token.onTurn) parts.push('its turn');
  return parts.join('; ');
}

