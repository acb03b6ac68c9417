import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';

describe('explore', () => {
  let table: Table;
  afterEach(() => table?.close());
  it('x', async () => {
    table = await openTable('src');
    const log = (label: string, out: any) => console.log(label, JSON.stringify(out.map((r: any) => [r.whisperTo ?? 'PUBLIC', r.who, texts([r])[0]]), null, 1));
    log('switch', await table.say('GM', '!defense-round config edition threshold'));
    table.mock.attribute('Bob','armor_physical').set('current', 18);
    table.mock.attribute('Bob','armor_defense').set('current', 10);
    table.mock.attribute('Bob','vitality').set('current', 30);
    await table.passTurn();
    log('defend', await table.say('Alice', '!defend --action defend --roll 10', ['Bob']));
    console.log(table.memory('Bob'));
    log('dmg', await table.say('Alice', '!damage 20 --hit 19', ['Bob']));
    console.log(table.attr('Bob','vitality'), table.memory('Bob'));
    log('dmg2', await table.say('Alice', '!damage 20 --hit 18', ['Bob']));
    log('dmg3', await table.say('Alice', '!damage 20 --hit 17 --situation side', ['Bob']));
    console.log(table.attr('Bob','vitality'), table.memory('Bob'), table.markers('Bob'));
    log('save', await table.say('Alice', '!defend --action save --roll 90', ['Bob']));
    console.log(table.attr('Bob','vitality'), table.memory('Bob'), table.markers('Bob'));
    log('save2', await table.say('Alice', '!defend --action save --roll 90', ['Bob']));
    log('next', await table.say('GM', '!defense-round next-round'));
    log('save3', await table.say('Alice', '!defend --action save --roll 90', ['Bob']));
    log('stance', await table.say('Alice', '!stance defensive', ['Bob']));
    log('evade', await table.say('Alice', '!defend --action evade --roll 3', ['Bob']));
    log('pierce', await table.say('GM', '!damage 3 --pierce 10', ['Goblin 1']));
    log('mental', await table.say('GM', '!defend --action defend --mental', ['Goblin 1']));
  });
});
