// The editions this script plays, in the order menus list them; the first is a new game's.
// A new edition is its folder and one line here (its import, and its name in the list below):
// its id is the name it is listed under.
import { soak } from './soak';
import { threshold } from './threshold';
import { opposed } from './opposed';

export const REGISTERED = { soak, threshold, opposed };
