// Roll20's one-click install options seed the settings on the first install only (commands.md).
import type { Settings } from './settings';

const BARS = ['bar1', 'bar2', 'bar3'];

/** Applies the options the GM chose at install time; unknown or odd values are left at default. */
export function applyInstallOptions(settings: Settings, options: Record<string, unknown> | undefined): void {
  if (!options) return;
  const text = (key: string) => (typeof options[key] === 'string' ? (options[key] as string).trim() : undefined);
  const vitality = text('Vitality bar');
  const soul = text('Soul bar');
  const power = text('Power bar');
  const bars = {
    vitality: vitality && BARS.includes(vitality) ? vitality : settings.bars.vitality,
    soul: soul && BARS.includes(soul) ? soul : settings.bars.soul,
    power: power && BARS.includes(power) ? power : settings.bars.power,
  };
  if (new Set(Object.values(bars)).size === 3) Object.assign(settings.bars, bars);
  const npc = text('NPC breakdowns');
  if (npc === 'gm' || npc === 'public') settings.visibility.npc = npc;
  const pc = text('PC breakdowns');
  if (pc === 'gm' || pc === 'public') settings.visibility.pc = pc;
  // A ticked checkbox holds its value ("on"); an unticked one is absent or empty.
  if ('Players target any token' in options) settings.playersTargetAny = text('Players target any token') === 'on';
  if ('Armor on manual edits' in options) settings.armorOnManualEdits = text('Armor on manual edits') === 'on';
}
