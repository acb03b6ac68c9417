// The playground page's entry: shims first (the mock's scheduler reads setImmediate as it loads),
// then the app, fed the shipped script from the page itself.
import './shims.js';
import { App } from './ui/app.js';

const source = document.getElementById('defense-round-source')?.textContent ?? '';
if (source.trim() === '') throw new Error('the page carries no dist/defense-round.js');
new App(source).start();
