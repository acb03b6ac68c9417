// The Special Defense Situations in words a player reads, one table for every edition that has
// them (the seeds share most rows; each edition's own list says which it accepts).
import type { SoakSituation } from './soak/situations';
import type { ThresholdSituation } from './threshold/situations';

export const SITUATION_NAME: Record<SoakSituation | ThresholdSituation, string> = {
  front: 'Front',
  'thrown-object': 'Thrown object',
  'spell-seen': 'Seen spell',
  behind: 'Behind',
  distracted: 'Distracted',
  side: 'Side',
  projectile: 'Projectile',
  gun: 'Gun',
  aoe: 'Area attack',
  'aoe-edge': 'Edge of an area attack',
  'spell-unseen': 'Unseen or very fast spell',
  'spell-fast': 'Very fast spell',
  'spell-invisible': 'Invisible spell',
  covert: 'Covert attack',
  spectator: 'Spectator',
};
