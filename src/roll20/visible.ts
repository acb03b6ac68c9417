// What the players see of a token (commands.md, "Output"): a token on a layer they see (objects,
// map, foreground; not the GM layer or the walls) of a page a player is on (the player page, or a
// page a player was moved to). The Campaign is read once per job (a command, an event, a roll
// come back), not per token.
let look: { pages: Set<string> } | undefined;

function table(): { pages: Set<string> } {
  if (look !== undefined) return look;
  const campaign = Campaign();
  const pages = new Set([String(campaign.get('playerpageid'))]);
  // An object of player id -> page id (a JSON string in some API versions), or false.
  let split: unknown = campaign.get('playerspecificpages');
  if (typeof split === 'string') {
    try {
      split = JSON.parse(split);
    } catch {
      split = undefined;
    }
  }
  if (split !== null && typeof split === 'object') for (const [player, page] of Object.entries(split)) if (!playerIsGM(player)) pages.add(String(page));
  look = { pages };
  void Promise.resolve().then(() => (look = undefined));
  return look;
}

/** Nothing about this token goes public: players do not see it. */
export function hiddenFromPlayers(token: Roll20Graphic): boolean {
  const layer = token.get('layer');
  return (layer !== 'objects' && layer !== 'map' && layer !== 'foreground') || !table().pages.has(String(token.get('_pageid')));
}
