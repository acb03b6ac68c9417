// The macros of a table playing `threshold` (docs/commands.md, "The `threshold` edition").
import type { TableMacro } from '../edition';

export const THRESHOLD_MACROS: readonly TableMacro[] = [
  { name: 'DR-Attack', action: '!attack [[?{Damage|2d6}]] --hit [[1d20+?{Hit modifier|0}]] --type ?{Type|Physical,physical|Magical,magical} --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id}', tokenAction: true },
  { name: 'DR-Damage', action: '!damage [[?{Damage|2d6}]] --hit [[1d20+?{Hit modifier|0}]] --type ?{Type|Physical,physical|Magical,magical}', gm: true, tokenAction: true },
  { name: 'DR-Defend', action: '!defend --action defend --situation ?{Situation|Front,front|Side,side|Behind,behind|Projectile,projectile}', tokenAction: true },
  { name: 'DR-Undo', action: '!damage --undo' },
];
