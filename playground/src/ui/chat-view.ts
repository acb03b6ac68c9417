// Draws one chat entry from its view (chat.ts) with text nodes and a few elements.
import { plain, type Inline, type MessageView } from '../chat.js';
import { h } from './dom.js';

export interface ChatHandlers {
  /** A chat button was pressed: its command, as Roll20 would send it when clicked. */
  press(command: string, label: string): void;
}

export function inlineNodes(inlines: readonly Inline[], handlers: ChatHandlers): Node[] {
  return inlines.map((inline) => {
    switch (inline.t) {
      case 'text':
        return document.createTextNode(inline.text);
      case 'br':
        return h('br');
      case 'roll': {
        const detail = `Rolling ${inline.expression}${inline.faces.length ? ` = (${inline.faces.join('+')})` : ''} = ${inline.total}`;
        return h('span', { class: 'inlineroll', text: inline.total, attrs: { title: detail, 'aria-label': `${inline.total} (${detail})` } });
      }
      case 'button': {
        const label = plain(inline.label);
        return h(
          'button',
          {
            class: 'chat-button',
            attrs: { type: 'button', title: `Sends ${inline.command}`, 'data-command': inline.command },
            on: { click: () => handlers.press(inline.command, label) },
          },
          ...inlineNodes(inline.label, handlers),
        );
      }
    }
  });
}

function whisperTag(view: MessageView): string | undefined {
  if (view.whisperTo === undefined) return undefined;
  return view.whisperTo === 'gm' ? 'whisper to the GM' : `whisper to ${view.whisperTo}`;
}

export function messageNode(view: MessageView, handlers: ChatHandlers, selectedNames: string[]): HTMLLIElement {
  const classes = ['msg', `msg-${view.kind}`, view.fromScript ? 'from-script' : 'from-player'];
  if (view.whisperTo !== undefined) classes.push('whisper');
  if (view.unescaped) classes.push('unescaped');
  const li = h('li', { class: classes.join(' ') });

  if (view.kind === 'api') {
    li.append(
      h('span', { class: 'who', text: view.who }),
      ' sent ',
      h('code', { text: plain(view.body) }),
      selectedNames.length ? ` with ${selectedNames.join(', ')} selected` : '',
      h('span', { class: 'visually-hidden', text: ' (an API command: Roll20 does not show it in chat)' }),
    );
    return li;
  }

  const tag = whisperTag(view);
  const meta = h(
    'p',
    { class: 'meta' },
    h('span', { class: 'who', text: view.kind === 'desc' ? '' : view.who }),
    tag ? h('span', { class: 'tag tag-whisper', text: tag }) : null,
    view.kind === 'gmroll' ? h('span', { class: 'tag', text: 'GM roll' }) : null,
    view.transient ? h('span', { class: 'tag tag-transient', text: 'not kept in the chat archive', attrs: { title: 'Roll20 shows it now but leaves it out of the chat archive' } }) : null,
    h('span', { class: 'tag tag-unseen', text: '', attrs: { hidden: true } }),
  );
  if (view.kind !== 'desc') li.append(meta);

  if (view.unescaped) {
    li.append(
      h('p', { class: 'warning', attrs: { role: 'note' } }, `Not the script's escaped output, shown as plain text: ${view.unescaped}.`),
      h('pre', { class: 'raw', text: plain(view.body) }),
    );
    return li;
  }

  if (view.template) {
    const { template } = view;
    const table = h('table', { class: `roll-template tpl-${template.name.replace(/[^\w-]/g, '')}` });
    if (template.title) table.append(h('caption', {}, ...inlineNodes(template.title, handlers)));
    const body = h('tbody');
    for (const row of template.rows) {
      body.append(h('tr', {}, h('th', { attrs: { scope: 'row' } }, ...inlineNodes(row.label, handlers)), h('td', {}, ...inlineNodes(row.value, handlers))));
    }
    table.append(body);
    li.append(table);
    if (template.extra.length) li.append(h('p', { class: 'body' }, ...inlineNodes(template.extra, handlers)));
    return li;
  }

  const body = h('p', { class: 'body' }, ...inlineNodes(view.body, handlers));
  li.append(body);
  return li;
}
