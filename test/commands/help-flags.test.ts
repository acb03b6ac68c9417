// The help reads the specs (issue 31): `!damage --help` and `!defend --help` list every flag the
// active edition declares, what it takes and when it may be given, from its typed flag table.
import { afterEach, describe, expect, it } from 'vitest';
import { editionsUnderTest } from '../support/conformance';
import { openTable, texts, type Table } from '../support/table';

describe.each(editionsUnderTest())('edition %s: --help lists the flags its specs declare', (id, edition) => {
  let table: Table;
  afterEach(() => table?.close());

  it('!damage --help and !defend --help have a Flags row with each of the command\'s flags', async () => {
    table = await openTable('src');
    await table.say('GM', `!defense-round config edition ${id}`);
    const damage = texts(await table.say('GM', '!damage --help')).join('\n');
    for (const flag of Object.keys(edition.hit.flags)) expect(damage).toContain(`--${flag}`);
    if (Object.keys(edition.hit.flags).length > 0) expect(damage).toMatch(/Flags/);
    const defend = texts(await table.say('GM', '!defend --help')).join('\n');
    if (edition.check.refused) expect(defend).not.toMatch(/Flags/);
    else for (const flag of Object.keys(edition.check.flags)) if (edition.check.flags[flag]!.retired === undefined) expect(defend).toContain(`--${flag}`);
  });

  it('a retired flag is not listed; !defend --help says the answer to an open attack, and !attack --help its own flags and the answer\'s', async () => {
    table = await openTable('src');
    await table.say('GM', `!defense-round config edition ${id}`);
    const defend = texts(await table.say('GM', '!defend --help')).join('\n');
    for (const [flag, spec] of Object.entries(edition.check.flags)) if (spec.retired !== undefined) expect(defend).not.toMatch(new RegExp(`--${flag}(?![\\w-])[^\\n]*: a switch`));
    const { answers } = edition.check;
    expect(defend).toContain(`!defend --answer KEY --ids DEFENDER --${answers.answerFlag} ${answers.choices.join('|')}`);
    const attack = texts(await table.say('GM', '!attack --help')).join('\n');
    for (const flag of [...Object.keys(answers.flags), ...Object.keys(answers.answerFlags)]) expect(attack).toContain(`--${flag}`);
  });
});
