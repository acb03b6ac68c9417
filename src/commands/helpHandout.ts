// The "Help: DefenseRound" handout: made by `!defense-round help`, rebuilt at ready when the
// script's version changed, and when the GM switches editions. It follows the active edition.
import { SCRIPT_VERSION } from '../version';
import type { AnyEdition } from '../rules/edition';
import { handoutId, writeHandout } from '../roll20/sandbox';
import { isSafeId, type Button } from '../render/card';
import { playableEditions } from '../rules/editions';

/** The handout is HTML, not chat: only HTML's own characters need entities (the text is the script's). */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const HELP_HANDOUT_NAME = 'Help: DefenseRound';

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
const item = (html: string) => `<li>${html}</li>`;

/** The handout's text for one edition: its commands, in its own words. */
export function helpHtml(edition: AnyEdition): string {
  const stance = edition.stance.modes.length > 0 ? [item(`${code(edition.stance.usage)}: set the stance; with no mode, show it. ${edition.stance.help.map(escapeHtml).join(' ')}`)] : [];
  return [
    `<h3>DefenseRound v${SCRIPT_VERSION}: the ${edition.id} edition</h3>`,
    '<p>Applies the defense and damage rules to the selected tokens (or <code>--ids</code>) and explains every step in chat.</p>',
    '<h4>Players and GM</h4><ul>',
    ...stance,
    item(`${code(edition.check.usage)}: ${edition.check.help.map(escapeHtml).join(' ')}`),
    item(`${code(edition.hit.usage)}: ${edition.hit.help.map(escapeHtml).join(' ')}`),
    item(`${code('!attack')} with the same amount and flags, ${code('--ids DEFENDER ...')} and the attacker selected (or ${code('--from ATTACKER')}): each defender's controller gets a prompt with a button for every answer the rules allow now (${code(`!defend --answer KEY --${edition.check.answers.answerFlag} ...`)}); the hit is applied once all have answered, or on ${code('!attack --resolve KEY')} (the GM, or whoever declared it). ${code('!attack --list')} and ${code('--cancel KEY')}; ${code('!damage --undo')} takes the whole attack back.`),
    item(`${code('!heal N [--to vitality|soul|power]')}: restore a bar, up to its max.`),
    item('Every command answers <code>--help</code>.'),
    '</ul><h4>GM</h4><ul>',
    item(`${code('!defense-round')}: status and settings menu; ${code('config KEY VALUE')} (${code(`config edition ${playableEditions().join('|')}`)} switches editions), ${code('set NAME VALUE|clear')}, ${code('repair')}, ${code('next-round')}, ${code('macros')} (the table's macros for this edition), ${code('refresh')}, ${code('help')}.`),
    item(`Commands another script relays (ScriptCards' ${code('--@')}, APILogic) carry no player, and a relay can carry any player's text: they are refused (the default), act as the GM under ${code('config api-commands gm')}, or act for the player ${code('--api-as PLAYERID')} names, with that player's rights (never a GM's), under ${code('config api-commands api-as')}. Allow either only if no player can make a script relay text.`),
    '</ul>',
  ].join('');
}

/** The handout's id, remembered for the links (memory only: a handout deleted since is looked up again). */
let knownId: string | undefined;

/** Creates the handout (unless told not to), or rewrites its text when it exists. */
export function refreshHelpHandout(edition: AnyEdition, options: { createIfMissing?: boolean } = {}): void {
  knownId = writeHandout(HELP_HANDOUT_NAME, helpHtml(edition), options.createIfMissing !== false) ?? knownId;
}

/**
 * The button that opens the handout in Roll20's journal (the link Roll20 itself gives a handout),
 * or undefined while there is none to open.
 */
export function handoutButton(): Button | undefined {
  knownId = handoutId(HELP_HANDOUT_NAME, knownId);
  return knownId !== undefined && isSafeId(knownId) ? { label: HELP_HANDOUT_NAME, command: `http://journal.roll20.net/handout/${knownId}` } : undefined;
}
