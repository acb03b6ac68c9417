import { it } from 'vitest';
import { openTable, publicFromScript, whispered, texts } from '../support/table';
const show = (out: any[]) => console.log(JSON.stringify(out.filter(r => r.who === 'DefenseRound').map(r => [r.whisperTo ?? 'PUBLIC', texts([r])[0]]), null, 1));
it('dbg1', async () => {
  const table = await openTable('src');
    await table.passTurn();
    await table.say('Alice', '!defend --action defend --roll 90', ['Bob']);
    await table.say('Alice', '!damage 400', ['Bob']);
    show(await table.say('Alice', '!damage --undo'));
  table.close();
});
it('dbg2', async () => {
  const table = await openTable('src');
    await table.say('GM', '!defense-round config players-target-any on');
    show(await table.say('Ben', '!damage 40', ['Goblin 1']));
    table.mock.token('Goblin 1').set('layer', 'gmlayer');
    show(await table.say('Ben', '!damage --undo'));
    show(await table.say('GM', '!damage 10', ['Goblin 1']));
    show(await table.say('GM', '!damage --undo'));
  table.close();
});
it('dbg3', async () => {
  const table = await openTable('src');
    await table.passTurn();
    await table.say('Alice', '!defend --action defend --roll 90', ['Bob']);
    await table.say('Alice', '!damage 200', ['Bob']);
    await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    show(await table.say('Alice', '!damage --undo'));
    show(await table.say('GM', '!damage --undo'));
    show(await table.say('GM', '!damage --undo --force'));
  table.close();
});
it('dbg4', async () => {
  const table = await openTable('src');
    await table.say('GM', '!damage 5', ['Crate']);
    show(await table.say('GM', `!damage --undo --ids ${table.id('Crate')}`));
    table.mock.token('Crate').set('bar1_value', 4);
    show(await table.say('GM', '!damage --undo'));
  table.close();
});
