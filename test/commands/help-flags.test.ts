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
    else for (const flag of Object.keys(edition.check.flags)) expect(defend).toContain(`--${flag}`);
  });
});
