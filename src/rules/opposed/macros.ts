// The macros of a table playing `opposed` (docs/commands.md, "The `opposed` edition").
import type { TableMacro } from '../edition';

export const OPPOSED_MACROS: readonly TableMacro[] = [
  { name: 'DR-Attack', action: '!attack [[?{Weapon damage|1d8}]] --attack [[1d20+?{Attack modifier|0}]] --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id}', tokenAction: true },
  { name: 'DR-Damage', action: '!damage [[?{Weapon damage|1d8}]] --attack [[1d20+?{Attack modifier|0}]]', gm: true, tokenAction: true },
  { name: 'DR-Stance', action: '!stance ?{Defense mode|Passive,passive|Active,active|Full,full}', tokenAction: true },
  { name: 'DR-Undo', action: '!damage --undo' },
];
