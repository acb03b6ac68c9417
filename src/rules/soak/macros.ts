// The macros of a table playing `soak` (docs/commands.md, "Ready-to-paste macros").
import type { TableMacro } from '../edition';

export const SOAK_MACROS: readonly TableMacro[] = [
  { name: 'DR-Attack', action: '!attack [[?{Damage|1d8+2}]] --type ?{Type|Physical,physical|Magical,magical} --situation ?{Situation|Front,front|Side,side|Behind,behind|Area attack,aoe} --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id}', tokenAction: true },
  { name: 'DR-Damage', action: '!damage [[?{Damage|2d6+3}]] --type ?{Type|Physical,physical|Magical,magical|Energy,energy|Breath,breath} --pierce ?{Piercing percent|0}', gm: true, tokenAction: true },
  { name: 'DR-Defend', action: '!defend --action ?{Action|Defend,defend|Evade,evade} --situation ?{Situation|Front,front|Side,side|Behind,behind|Area attack,aoe}', tokenAction: true },
  { name: 'DR-Stance', action: '!stance ?{Stance|Defensive,defensive|Reactive,reactive|None,none}', tokenAction: true },
  { name: 'DR-Undo', action: '!damage --undo' },
];
