// Names the game's sheet has no field for (a game has one sheet, as HealthColors keeps them): Roll20
// logs an error line for every getAttrByName of such a name, so each is asked at most once per game.
/** How many such names are kept, and how long one may be (an attribute name in the settings is at most 100). */
export const MAX_SHEET_LACKS = 50;
export const MAX_SHEET_NAME = 100;

/** Whether a name can be kept: lower-cased as it is looked up, and not too long. */
export function keepableName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_SHEET_NAME;
}

/** The stored list checked on load: absent is none (states before it had none); a bad entry is dropped and named. */
export function checkSheetLacks(raw: unknown, problems: string[]): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push('sheetLacks: not a list; forgotten');
    return [];
  }
  const names: string[] = [];
  let dropped = 0;
  for (const name of raw) {
    if (typeof name === 'string' && keepableName(name) && name === name.toLowerCase() && !names.includes(name) && names.length < MAX_SHEET_LACKS) names.push(name);
    else dropped += 1;
  }
  if (dropped > 0) problems.push(`sheetLacks: ${dropped} bad or extra names dropped`);
  return names;
}
