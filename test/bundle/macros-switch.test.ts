// The table's macros and the edition switch on the bundle (issue 33): `DR-Attack` is one defender
// and one question (select, macro, target, amount), `DR-Attack-Group` picks up to three; the
// script's own macros the edition does not use are removed, with why; a mistyped sub-command gets a
// "did you mean"; a switch tells the players whose attacks it cancels, refuses their old buttons in
// one line, and says what it changed as well as what it kept.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import { renderMessage } from '../../mocks/chat-text';
import { expandMacro } from '../../mocks/cli-macro';
import type { MockObject } from '../../mocks/roll20';
import type { ChatRecord } from '../../mocks/chat-message';

type EditionName = 'soak' | 'threshold' | 'opposed';

let table: Table | undefined;
afterEach(() => table?.close());

const all = (out: ChatRecord[]) => texts(out).join('\n');

/** The demo table in an edition, a turn on (Goblin 1 acting, the attacker). */
async function tableIn(edition: EditionName): Promise<Table> {
  const opened = await openTable('bundle', { seed: 5 });
  if (edition !== 'soak') await opened.say('GM', `!defense-round config edition ${edition}`);
  await opened.passTurn();
  return opened;
}

/** A macro's action as the script wrote it (undefined: no macro of that name). */
function macroAction(t: Table, name: string): string | undefined {
  const found = t.mock.globals.findObjs({ _type: 'macro', name }) as unknown as MockObject[];
  return found.length === 0 ? undefined : String(t.mock.peek(found[0]!, 'action'));
}

/** The buttons whispered to one reader, as Roll20 sends them when clicked. */
function buttonsTo(out: ChatRecord[], to: string): string[] {
  return out.filter((record) => record.whisperTo?.toLowerCase() === to.toLowerCase()).flatMap((record) => renderMessage(record).buttons.map((button) => button.command));
}

describe.each(['soak', 'threshold', 'opposed'] as const)('DR-Attack in %s: one ordinary exchange costs the GM four inputs and the player one', (edition) => {
  it('select, macro, target, amount: one pick and one question; the attack has that one defender, and one click settles it', async () => {
    table = await tableIn(edition);
    await table.say('GM', '!defense-round macros');
    const action = macroAction(table, 'DR-Attack')!;
    expect(action).toMatch(/^!attack /);
    // What Roll20 asks before sending it: each target pick and each query (the sandbox's fill-in, answered at a "terminal").
    const asked: string[] = [];
    const tokens = table.mock.globals.findObjs({ _type: 'graphic' }) as unknown as MockObject[];
    const expanded = await expandMacro(action, {
      mock: table.mock,
      selection: [table.mock.token('Goblin 1')],
      tokens,
      targetPicks: [],
      answers: [],
      prompter: { ask: async (question) => (asked.push(question), question.startsWith('Pick') ? 'Bob' : '') },
    });
    expect(expanded.ok).toBe(true);
    // Select the attacker, click the macro, then what Roll20 asks: a target and the amount.
    const gmInputs = 2 + asked.length;
    expect(gmInputs).toBeLessThanOrEqual(4);
    expect(asked.map((question) => question.replace(/ \(.*$| \[.*$/, ''))).toEqual(['Pick "Defender"', '?{' + (edition === 'opposed' ? 'Weapon damage' : 'Damage') + '}']);
    // The hit roll at its best, so the hit can touch Bob and he is asked (threshold: damage 2d6, then the d20).
    if (edition === 'threshold') {
      // Bob's Physical Armor on The Defensive Turn's scale (the demo sheet's is The Defensive Round's).
      table.mock.attribute('Bob', 'armor_physical').set('current', 18);
      table.mock.dice.force(3, 4, 20);
    }
    if (edition === 'opposed') table.mock.dice.force(5, 20);
    const declared = await table.say('GM', (expanded as { line: string }).line, ['Goblin 1']);
    expect(table.stored().exchange.attacks.A1?.defenders).toEqual([table.id('Bob')]);
    // The player: one click on the prompt's first answer, and the attack is settled.
    const answer = buttonsTo(declared, 'Alice').find((command) => command.startsWith('!defend --answer A1'));
    expect(answer).toBeDefined();
    await table.say('Alice', answer!);
    expect(table.stored().exchange.attacks).toEqual({});
    // Beside it on the GM's macro bar, the group attack: three picks (one picked again counts once).
    expect(macroAction(table, 'DR-Attack-Group')?.match(/@\{target\|/g)).toHaveLength(3);
  });
});

describe('!defense-round macros: the script\'s own macros follow the edition', () => {
  it('a switch removes the old edition\'s own macros the new one does not use, says why, and makes the new one\'s; a macro made by hand stays', async () => {
    table = await tableIn('soak');
    table.mock.create('macro', { name: 'DR-Undo', action: '!my-own-undo', visibleto: '', istokenaction: false, _playerid: table.scene.players.GM });
    const made = await table.say('GM', '!defense-round macros');
    expect(all(made)).toMatch(/made DR-Attack, DR-Attack-Group, DR-Damage, DR-Defend, DR-Stance; left DR-Undo as they are/);
    const threshold = await table.say('GM', '!defense-round config edition threshold');
    expect(whispered(threshold, 'gm').join('\n')).toMatch(/Table macros: refreshed DR-Attack, DR-Attack-Group, DR-Damage, DR-Defend; removed DR-Stance \(the threshold edition has no stances\); left DR-Undo as they are/);
    expect(macroAction(table, 'DR-Stance')).toBeUndefined();
    expect(macroAction(table, 'DR-Attack')).toMatch(/--hit \[\[1d20\]\]/);
    expect(macroAction(table, 'DR-Undo')).toBe('!my-own-undo');
    const opposed = await table.say('GM', '!defense-round config edition opposed');
    expect(whispered(opposed, 'gm').join('\n')).toMatch(/Table macros: made DR-Stance; refreshed DR-Attack, DR-Attack-Group, DR-Damage; removed DR-Defend \(in the opposed edition the defense is rolled inside !damage\)/);
    expect(macroAction(table, 'DR-Defend')).toBeUndefined();
    expect(table.stored().macros['DR-Defend']).toBeUndefined();
  });

  it('!defense-round macros removes one of its own the active edition does not use (remembered from before), and says which', async () => {
    table = await tableIn('threshold');
    await table.say('GM', '!defense-round macros');
    // A DR-Stance the script made while the table played soak, under a version that left it behind at the switch.
    const stance = table.mock.create('macro', { name: 'DR-Stance', action: '!stance ?{Stance|Defensive,defensive|None,none}', visibleto: 'all', istokenaction: true, _playerid: table.scene.players.GM });
    table.stored().macros['DR-Stance'] = stance.id;
    await table.restart();
    const out = await table.say('GM', '!defense-round macros');
    expect(whispered(out, 'gm').join('\n')).toMatch(/Macros for the threshold edition: refreshed DR-Attack, DR-Attack-Group, DR-Damage, DR-Defend, DR-Undo; removed DR-Stance \(the threshold edition has no stances\)\./);
    expect(macroAction(table, 'DR-Stance')).toBeUndefined();
  });
});

describe('!defense-round: a mistyped sub-command', () => {
  it('gets a "did you mean", nothing changed', async () => {
    table = await tableIn('soak');
    const out = await table.say('GM', '!defense-round confg edition threshold');
    expect(whispered(out, 'gm')).toEqual([expect.stringMatching(/^Unknown subcommand "confg": did you mean config\?/)]);
    expect(table.stored().settings.edition).toBe('soak');
    expect(whispered(await table.say('GM', '!defense-round macro'), 'gm')[0]).toMatch(/did you mean macros\?/);
  });
});

describe('an edition switch that cancels open attacks', () => {
  it('tells each prompted player in one line naming only the key, refuses her old button in one line, and tells the GM what it changed', async () => {
    table = await openTable('bundle', {
      seed: 5,
      setup: (mock, scene) => {
        // The attacker and a second defender on the GM layer: nothing a player may be told of.
        mock.token('Goblin 1').set('layer', 'gmlayer');
        mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'gmlayer', name: 'Shade', represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
      },
    });
    await table.say('Alice', '!stance defensive', ['Bob']);
    await table.passTurn();
    await table.say('GM', '!defend --action defend', ['Goblin 2']);
    const declared = await table.say('GM', `!attack 200 --ids ${table.id('Bob')} ${table.id('Shade')}`, ['Goblin 1']);
    const old = buttonsTo(declared, 'Alice').find((command) => command.startsWith('!defend --answer A1'))!;
    expect(old).toBeDefined();
    const switched = await table.say('GM', '!defense-round config edition opposed');
    expect(whispered(switched, 'Alice')).toEqual(['Attack A1 is cancelled: the GM switched editions. Nothing was written; its buttons answer nothing now.']);
    const gm = whispered(switched, 'gm').join('\n');
    expect(gm).toMatch(/Cleared: the stances the opposed edition lacks \(Bob defensive\); 1 defense made ahead; saves owed and reactions/);
    expect(gm).toMatch(/Open attack cancelled: A1 \(their players are told\)\./);
    expect(gm).toMatch(/Bars, worn armor and the Turn Tracker are kept, and sheet values are read as they are \(not converted\)\.$/);
    // Her old button (its flag is not the opposed edition's): one line, the reason.
    const click = await table.say('Alice', old);
    expect(whispered(click, 'Alice')).toEqual([expect.stringMatching(/^Attack A1 was cancelled when the GM switched editions: nothing to answer or resolve\./)]);
    expect(all(click)).not.toMatch(/Goblin|Shade|flag/);
    // A key she never knew answers as any unused one.
    expect(whispered(await table.say('Alice', '!defend --answer A7 --ids x --mode passive'), 'Alice')[0]).toMatch(/no open attack A7/i);
  });
});
