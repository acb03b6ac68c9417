// The browser test's stand-in for Roll20's sheet frame: the sheet's fields bound to one set of
// attributes, its workers run by mocks/sheetWorkers.ts, and Roll20's one behaviour the sheet's
// CSS counts on: every field of a name shows that attribute (the hidden edition input too).
import { runSheetWorkers } from '../../../mocks/sheetWorkers';

declare const document: any;
declare const window: any;

const attrs = new Map<string, string>();
const fieldsOf = (name: string): any[] => [...document.querySelectorAll(`[name="attr_${name}"]`)];
const show = (name: string): void => {
  for (const field of fieldsOf(name)) {
    const value = attrs.get(name) ?? '';
    if (field.tagName === 'SPAN') field.textContent = value;
    else {
      field.value = value;
      if (field.type === 'hidden') field.setAttribute('value', value);
    }
  }
};

export function start(html: string, values: Record<string, string>): void {
  for (const field of document.querySelectorAll('[name^="attr_"]')) {
    const name = field.getAttribute('name').slice(5);
    if (!attrs.has(name) && field.tagName !== 'SPAN') attrs.set(name, field.value);
  }
  for (const [name, value] of Object.entries(values)) attrs.set(name, value);
  const workers = runSheetWorkers(html, { get: (name) => attrs.get(name), set: (name, value) => (attrs.set(name, value), show(name)) });
  for (const name of attrs.keys()) show(name);
  for (const field of document.querySelectorAll('input[name^="attr_"], select[name^="attr_"]')) {
    field.addEventListener('change', () => {
      const name = field.getAttribute('name').slice(5);
      const previous = attrs.get(name);
      attrs.set(name, field.value);
      show(name);
      workers.changed(name, previous);
    });
  }
  workers.open();
  document.body.dataset.state = 'ready';
}
window.startSheet = start;
