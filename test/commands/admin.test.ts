import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, whispered, type Table } from '../support/table';
import { SCHEMA_VERSION } from '../../src/state/store';
import { createRoll20 } from '../../mocks/roll20';
import { buildDemoScene } from '../../mocks/scene';
import { loadBundle } from '../../mocks/vm';
import { startDefenseRound } from '../../src/app';

describe.each(MODES)('!defense-round (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('shows the GM the version, edition and settings, with a settings menu', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!defense-round');
    const gm = whispered(out, 'gm').join('\n');
    expect(gm).toMatch(/DefenseRound v\d+\.\d+\.\d+/);
    expect(gm).toMatch(/Edition: soak/);
    expect(gm).toMatch(/Vitality bar1, Soul bar2, Power bar3/);
    expect(out.some((r) => r.content.includes('(!defense-round config visibility.npc public)'))).toBe(true);
    expect(publicFromScript(out)).toEqual([]);
  });

  it('is for the GM only: a player gets a whispered explanation', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!defense-round');
    // A permission refusal says what is wrong in one line, with no usage attached (commands.md, "Output").
    expect(whispered(out, 'Alice')).toEqual(['!defense-round is for the GM only. [Help](!defense-round --help)']);
    expect(whispered(out, 'gm')).toEqual([]);
  });

  it('refuses an unknown subcommand, whispered with the help', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!defense-round explode');
    // Nothing near it: where the sub-commands are listed (issue 33: a near miss gets a "did you mean").
    expect(whispered(out, 'gm')[0]).toMatch(/^unknown subcommand "explode": Help lists the subcommands\. \[Help\]\(!defense-round --help\)$/i);
  });

  it('changes one setting at a time and keeps it in state', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config visibility.npc public');
    expect(table.stored().settings.visibility.npc).toBe('public');
    const out = await table.say('GM', '!damage 10', ['Goblin 1']);
    expect(publicFromScript(out).join('\n')).toMatch(/Goblin 1 takes no damage: the armor holds \(10 physical\) \| .*10 x 90% soak = 9/);
    await table.say('GM', '!defense-round config marker.dead skull');
    expect(table.stored().settings.markers.dead).toBe('skull');
  });

  it.each([
    ['!defense-round config edition chess', /edition must be one of soak, threshold, opposed/i],
    ['!defense-round config overwhelm-limit lots', /whole number/],
    ['!defense-round config marker.dead sparkly-unicorn', /neither a Roll20 status marker/],
    ['!defense-round config stamina-bar bar1', /stamina may not share the Vitality bar/i],
    ['!defense-round config nonsense 1', /unknown setting "nonsense"/i],
  ])('refuses %s and keeps the settings', async (command, problem) => {
    table = await openTable(mode);
    const before = JSON.stringify(table.stored().settings);
    const out = await table.say('GM', command);
    expect(whispered(out, 'gm')[0]).toMatch(problem);
    expect(JSON.stringify(table.stored().settings)).toBe(before);
  });

  it('mapping two resources to one bar swaps them', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config vitality-bar bar2');
    expect(table.stored().settings.bars).toMatchObject({ vitality: 'bar2', soul: 'bar1', power: 'bar3' });
    await table.say('GM', '!damage 5', ['Crate']);
    expect(table.bar('Crate', 'bar2')).toBe('');
  });

  it('per-token overrides win over the sheet and wear per token; repair restores them', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round set armor_physical 50', ['Goblin 1']);
    await table.say('GM', '!damage 40', ['Goblin 1']);
    // 40 x 90% = 36 - 50 = 0; wear floor(36/4) = 9 -> 41
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.memory('Goblin 1').wear.physical).toBe(41);
    await table.say('GM', '!defense-round repair', ['Goblin 1']);
    expect(table.memory('Goblin 1').wear.physical).toBe(50);
    await table.say('Alice', '!damage 200', ['Bob']);
    expect(table.attr('Bob', 'armor_physical')).toBe(60);
    await table.say('GM', '!defense-round repair', ['Bob']);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
    // A generic token without overrides: its wear is its own, the sheet's max is where it goes back to.
    await table.say('GM', '!damage 40', ['Goblin 2']); // 36 after soak; wear 9: 20 -> 11
    expect(table.memory('Goblin 2').wear).toEqual({ physical: 11 });
    const out = await table.say('GM', '!defense-round repair', ['Goblin 2']);
    expect(whispered(out, 'gm')).toEqual(['Repair: Goblin 2: Physical 11 -> 20']);
    expect(table.memory('Goblin 2').wear).toEqual({ physical: 20 });
    expect(table.attr('Goblin', 'armor_physical')).toBe(20);
    // Again: nothing to restore, and no word about the Magical protection the goblin never had.
    const again = await table.say('GM', '!defense-round repair', ['Goblin 2']);
    expect(whispered(again, 'gm')).toEqual(['Repair: Goblin 2: Physical 20, already whole']);
  });

  it('makes the help handout', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round help');
    const handouts = table.mock.globals.findObjs({ _type: 'handout', name: 'Help: DefenseRound' });
    expect(handouts).toHaveLength(1);
    expect(String(table.mock.peek(handouts[0]!, 'notes'))).toMatch(/!damage/);
  });

  it('settings and per-token memory survive a sandbox restart', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('GM', '!damage 20', ['Goblin 1']);
    await table.restart();
    expect(table.stored().settings.playersTargetAny).toBe(true);
    expect(table.memory('Goblin 1').wear.physical).toBe(16);
    await table.say('Ben', `!damage 3 --ids ${table.id('Crate')}`);
    expect(table.bar('Crate')).toBe(17);
    await table.say('GM', '!damage 20', ['Goblin 1']);
    // 18 - 16 worn Physical = 2 - 5 Defense = 0; wear floor(18/4) = 4 -> 12
    expect(table.memory('Goblin 1').wear.physical).toBe(12);
  });
});

describe.each(MODES)('stored state at start-up (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('reports garbage in state, replaces it by defaults, and keeps working', async () => {
    table = await openTable(mode, { setup: (mock) => (mock.state.DefenseRound = { schemaVersion: 1, settings: { edition: 42, visibility: 'x' }, tokens: 'nope' }) });
    expect(table.mock.logs.join('\n')).toMatch(/settings\.edition: 42 is not valid/);
    const out = await table.say('GM', '!defense-round');
    expect(whispered(out, 'gm').join('\n')).toMatch(/State problems: settings\.edition/);
    expect(table.stored().settings.edition).toBe('soak');
    await table.say('GM', '!damage 5', ['Crate']);
    expect(table.bar('Crate')).toBe(15);
  });

  it('migrates a version-0 state and keeps its settings', async () => {
    table = await openTable(mode, { setup: (mock) => (mock.state.DefenseRound = { edition: 'soak', vitalityBar: 'bar1', playersTargetAny: true }) });
    expect(table.stored().schemaVersion).toBe(SCHEMA_VERSION);
    expect(table.stored().settings.playersTargetAny).toBe(true);
    await table.say('Ben', `!damage 5 --ids ${table.id('Crate')}`);
    expect(table.bar('Crate')).toBe(15);
  });

  it('seeds the settings from the one-click install options on the first install only', async () => {
    table = await openTable(mode, {
      setup: (mock) => {
        (mock.globals as any).globalconfig = { defenseround: { 'NPC breakdowns': 'public', 'Players target any token': 'on' } };
        if (mode === 'src') (globalThis as any).globalconfig = (mock.globals as any).globalconfig;
      },
    });
    try {
      expect(table.stored().settings.visibility.npc).toBe('public');
      expect(table.stored().settings.playersTargetAny).toBe(true);
    } finally {
      delete (globalThis as any).globalconfig;
    }
  });
});

describe.each(MODES)('the first install (%s)', (mode) => {
  it('whispers the GM once how to start, and not again after a restart', async () => {
    const mock = createRoll20({ seed: 7 });
    buildDemoScene(mock);
    if (mode === 'src') mock.install(globalThis);
    const load = () => (mode === 'src' ? mock.globals.on('ready', () => void startDefenseRound()) : void loadBundle(mock));
    load();
    mock.fireReady();
    await mock.settle();
    const first = mock.newMessages().filter((r) => r.whisperTo === 'gm').map((r) => r.content);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/is installed&#58; &#33;defense-round shows its settings/);
    await mock.restart(load);
    expect(mock.newMessages().filter((r) => /is installed/.test(r.content))).toEqual([]);
    if (mode === 'src') mock.uninstall();
  });
});
