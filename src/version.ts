// The script's identity, read from package.json at build time (only `version` is bundled).
import { version } from '../package.json';

export const SCRIPT_NAME = 'DefenseRound';
export const SCRIPT_VERSION: string = version;
