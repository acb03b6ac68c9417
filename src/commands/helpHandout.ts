// The "Help: DefenseRound" handout: made by `!defense-round help`, rebuilt at ready only when the
// script's version changed since it was last written.
import { SCRIPT_VERSION } from '../version';

export const HELP_HANDOUT_NAME = 'Help: DefenseRound';

const HELP_HTML = [
  `<h3>DefenseRound v${SCRIPT_VERSION}</h3>`,
  '<p>Applies the defense and damage rules to the selected tokens (or <code>--ids</code>) and explains every step in chat.</p>',
  '<h4>Players and GM</h4><ul>',
  '<li><code>!stance defensive|reactive|none</code>: set your stance; with no mode, show it.</li>',
  '<li><code>!defend --action defend|evade|react|counter|skill|save [--situation S] [--roll R] [--mod M] [--vs ID] [--aided-by ID]</code>: a defensive check; a success blocks the next hit. Not on your own turn (the top of the Turn Tracker); saves are always allowed.</li>',
  '<li>Reactive stance: one successful <code>--action react --vs ATTACKER</code> buys one reaction against that attacker: a counter, a skill on an ally, or aid (the ally adds <code>--aided-by YOUR_ID --vs ATTACKER</code>, +5).</li>',
  '<li><code>!damage N [--type physical|magical|energy|breath] [--pierce P] [--to vitality|soul|power] [--instant-kill] [--defense success|fail|none]</code>: one hit through soak, protection and defense. The armor stands (and soaks) while either protection is above 0.</li>',
  '<li>At 0 or below: one save stands you up at 1 Vitality; a single hit to -10 or below gives three saves against death, and once saved you still owe the stand-up save.</li>',
  '<li><code>!damage --undo [--force]</code>: put back the last damage you applied (the GM: anyone\'s).</li>',
  '<li><code>!heal N [--to vitality|soul|power]</code>: restore a bar, up to its max.</li>',
  '<li>Every command answers <code>--help</code>.</li></ul>',
  '<h4>GM</h4><ul>',
  '<li><code>!defense-round</code>: status and settings menu; <code>config KEY VALUE</code>, <code>set NAME VALUE|clear</code>, <code>repair</code>, <code>next-round</code>, <code>refresh</code>, <code>help</code>.</li></ul>',
].join('');

/** Creates the handout, or rewrites its text when it exists. */
export function refreshHelpHandout(): void {
  const existing = findObjs({ _type: 'handout', name: HELP_HANDOUT_NAME })[0];
  if (existing) {
    existing.set('notes', HELP_HTML);
    return;
  }
  const created = createObj('handout', { name: HELP_HANDOUT_NAME, inplayerjournals: 'all', archived: false });
  created?.set('notes', HELP_HTML);
}
