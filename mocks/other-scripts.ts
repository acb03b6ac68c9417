// Stand-ins for other Roll20 scripts, declared as those scripts declare themselves. Roll20
// concatenates every script of a game into one, so put one of these before the bundle's source:
// TokenMod's and GroupInitiative's top-level `const` is then a bare name in scope but not a
// property of the global object, and HealthColors' and TurnMarker's `var` is both.
//
// Each is small, written here from what the real script does (read in Roll20's community
// repository), never copied from it: only the behaviour that meets DefenseRound is kept.

/**
 * TokenMod: `!token-mod --set barN_value|V [--ids ID ...]` (or the selected tokens). A bar linked
 * to an attribute is written through the attribute only (setWithWorker), never on the token;
 * Roll20 copies it to the bar later. Then its observers hear at once with `prev`, a plain copy of
 * the token taken before the change. `setBar(token, bar, value)` is the same edit without chat.
 */
export const TOKENMOD_STAND_IN = `
const TokenMod = (() => {
  const observers = [];
  const setBar = (token, bar, value) => {
    const prev = JSON.parse(JSON.stringify(token));
    const link = token.get(bar + '_link');
    const attribute = link ? getObj('attribute', link) : undefined;
    if (attribute) attribute.setWithWorker({ current: value });
    token.set(attribute ? { statusmarkers: token.get('statusmarkers') } : { [bar + '_value']: value, statusmarkers: token.get('statusmarkers') });
    observers.forEach((fn) => fn(token, prev));
  };
  on('chat:message', (msg) => {
    if (msg.type !== 'api' || !/^!token-mod\\b/.test(msg.content)) return;
    const set = /--set\\s+(bar[123])_value\\|(-?\\d+)/.exec(msg.content);
    if (!set) return;
    const ids = /--ids\\s+(.+?)(?:\\s--|$)/.exec(msg.content);
    const targets = ids ? ids[1].split(/[\\s,]+/).filter(Boolean) : (msg.selected || []).map((s) => s._id);
    for (const id of targets) {
      const token = getObj('graphic', id);
      if (token) setBar(token, set[1], Number(set[2]));
    }
  });
  return {
    ObserveTokenChange: (fn) => { observers.push(fn); },
    setBar,
    /** What TokenMod does after an edit made some other way: tell the observers. */
    edited: (token, prev) => observers.forEach((fn) => fn(token, prev)),
  };
})();
`;

/**
 * HealthColors: counts its updates and keeps each token's name and prev Vitality (bar1). Like the
 * real one it compares `prev.width` and `prev.height` with the token: a token that looks resized
 * gets its full pass, which applies its name settings (here "Yes" for everyone: a hidden NPC's
 * name would be shown to the players).
 */
export const HEALTHCOLORS_STAND_IN = `
var HealthColors = {
  calls: 0,
  updates: [],
  resized: 0,
  Update(token, prev) {
    this.calls += 1;
    this.updates.push([token.get('name'), prev.bar1_value]);
    if (prev.width !== token.get('width') || prev.height !== token.get('height')) {
      this.resized += 1;
      token.set({ showname: true, showplayers_name: true });
    }
  },
};
`;

/**
 * ScriptCards: each `--@NAME|PARAMS` line of a `!scriptcard {{ ... }}` (or `!script`) card is
 * relayed as `!NAME PARAMS`, a leading `_` of a word turned into `--`, sent with sendChat under
 * the sender's name: Roll20 gives the relayed message playerid "API" and no selection.
 */
export const SCRIPTCARDS_STAND_IN = `
var ScriptCards = (() => {
  on('chat:message', (msg) => {
    if (msg.type !== 'api' || !/^!script(card)?\\b/.test(msg.content)) return;
    const lines = msg.content.split(/\\s--(?=[@#!=&+^])/).slice(1);
    for (const line of lines) {
      const call = /^@([^|]+)\\|?([^]*?)\\s*(}})?\\s*$/.exec(line);
      if (!call) continue;
      const params = call[2].replace(/(^|\\s)_/g, '$1--');
      sendChat(msg.who, ('!' + call[1].trim() + ' ' + params).trim());
    }
  });
  return {};
})();
`;

/**
 * SelectManager: registered at load (before any script's `ready`), it keeps the last player
 * message's selection and playerid, and gives a relayed message (playerid "API") the selection
 * back; its playerid only when the GM turned that on (`!smconfig +playerid`; off by default).
 */
export const SELECTMANAGER_STAND_IN = `
var SelectManager = (() => {
  let last = { selected: undefined, playerid: undefined, who: undefined };
  const insert = { selected: true, playerid: false };
  on('chat:message', (msg) => {
    if (msg.type !== 'api') return;
    if (/^!smconfig\\b/.test(msg.content) && playerIsGM(msg.playerid)) {
      if (/\\+playerid/.test(msg.content)) insert.playerid = true;
      if (/-playerid/.test(msg.content)) insert.playerid = false;
      return;
    }
    if (msg.playerid !== 'API') {
      last = { selected: msg.selected, playerid: msg.playerid, who: msg.who };
      return;
    }
    if (insert.selected && last.selected) msg.selected = last.selected;
    if (insert.playerid && last.playerid) {
      msg.playerid = last.playerid;
      msg.who = last.who;
    }
  });
  return {};
})();
`;

/**
 * TurnMarker1: `!tm start` puts its marker (a graphic on the GM layer named "Round 0") in the
 * Turn Tracker at initiative -1; `!eot` turns the tracker one row with Campaign().set (no event)
 * and, when its own row comes to the top, counts a round on it and turns past it, all inside its
 * own handler. A click of the tracker by hand does the same through change:campaign:turnorder.
 */
export const TURNMARKER_STAND_IN = `
var TurnMarker = (() => {
  const read = () => { const t = Campaign().get('turnorder'); return t ? JSON.parse(t) : []; };
  const write = (order) => Campaign().set({ turnorder: JSON.stringify(order) });
  const marker = () => findObjs({ _type: 'graphic', layer: 'gmlayer', _pageid: Campaign().get('playerpageid') }).find((g) => /^Round \\d+$/.test(g.get('name')));
  const pastMarker = () => {
    const m = marker();
    let order = read();
    if (!m || order.length === 0 || order[0].id !== m.id) return;
    const round = Number(m.get('name').split(' ')[1]) + 1;
    m.set({ name: 'Round ' + round, bar2_value: round });
    order.push(order.shift());
    write(order);
  };
  on('chat:message', (msg) => {
    if (msg.type !== 'api') return;
    if (/^!tm start\\b/.test(msg.content)) {
      let m = marker();
      if (!m) m = createObj('graphic', { _pageid: Campaign().get('playerpageid'), layer: 'gmlayer', name: 'Round 0', imgsrc: 'https://s3.amazonaws.com/files.d20.io/images/0/marker/thumb.png', width: 70, height: 70 });
      const order = read();
      if (!order.some((row) => row.id === m.id)) write([...order, { id: m.id, pr: -1, custom: '', _pageid: m.get('_pageid') }]);
      return;
    }
    if (/^!eot\\b/.test(msg.content)) {
      const order = read();
      if (order.length === 0) return;
      order.push(order.shift());
      write(order);
      pastMarker();
    }
  });
  on('change:campaign:turnorder', () => pastMarker());
  return {};
})();
`;

/**
 * GroupInitiative: `!group-init` rolls 1d20 for each selected token, adds or updates its row,
 * sorts the tracker highest first and writes it with Campaign().set (no event); then it tells the
 * observers of ObserveTurnOrderChange, with the new tracker and the one before.
 */
export const GROUPINITIATIVE_STAND_IN = `
const GroupInitiative = (() => {
  const observers = [];
  on('chat:message', (msg) => {
    if (msg.type !== 'api' || !/^!group-init\\b/.test(msg.content)) return;
    const prev = Campaign().get('turnorder');
    const order = prev ? JSON.parse(prev) : [];
    for (const selected of msg.selected || []) {
      const token = getObj('graphic', selected._id);
      if (!token) continue;
      const pr = randomInteger(20);
      const row = order.find((entry) => entry.id === token.id);
      if (row) row.pr = pr;
      else order.push({ id: token.id, pr, custom: '', _pageid: token.get('_pageid') });
    }
    order.sort((a, b) => Number(b.pr) - Number(a.pr));
    Campaign().set({ turnorder: JSON.stringify(order) });
    observers.forEach((fn) => fn(Campaign().get('turnorder'), prev));
  });
  return { ObserveTurnOrderChange: (fn) => { observers.push(fn); } };
})();
`;

/**
 * Bump: a token (the original, which keeps its bars and is what the GM made) gets an invisible
 * stand-in, a clear image on the other layer, kept in `state.Bump.mirrored` as
 * `{ originalId: standInId }` (made on `ready`, schema 0.6). `!bump` (or `Bump.Bump(ids)`) swaps
 * the two layers: the original on the GM layer, its stand-in on the objects layer, which players
 * see as nothing and may move. Bump copies the name, position, bar values and links, control and
 * `represents` from one to the other only in its own `change:graphic` handler (and TokenMod's
 * observer): a user's edit of either, never a script's `set`. The stand-in's name and bars are
 * never shown to players. `Bump.Slave(ids, push)` makes a stand-in (`push`: the original goes to
 * the GM layer at once).
 */
export const BUMP_STAND_IN = `
const Bump = (() => {
  const mirroredProps = ['name', 'left', 'top', 'width', 'height', 'rotation', 'bar1_value', 'bar2_value', 'bar3_value',
    'controlledby', 'represents', 'bar1_max', 'bar2_max', 'bar3_max', 'bar1_link', 'bar2_link', 'bar3_link'];
  const hidden = { showplayers_name: false, showplayers_bar1: false, showplayers_bar2: false, showplayers_bar3: false };
  const pairs = () => state.Bump.mirrored;
  const pairOf = (id) => {
    if (Object.prototype.hasOwnProperty.call(pairs(), id)) return { original: getObj('graphic', id), standIn: getObj('graphic', pairs()[id]) };
    const original = Object.keys(pairs()).find((key) => pairs()[key] === id);
    return original ? { original: getObj('graphic', original), standIn: getObj('graphic', id) } : undefined;
  };
  const copy = (from) => mirroredProps.reduce((props, key) => ({ ...props, [key]: from.get(key) }), {});
  const slave = (id, push) => {
    const original = getObj('graphic', id);
    if (!original || pairOf(id)) return;
    const layer = push || original.get('layer') === 'gmlayer' ? 'objects' : 'gmlayer';
    if (push) original.set({ layer: 'gmlayer' });
    const standIn = createObj('graphic', { ...copy(original), ...hidden, imgsrc: 'https://example.invalid/clear.png', layer, pageid: original.get('pageid'), showname: false });
    pairs()[original.id] = standIn.id;
  };
  const bump = (id) => {
    const pair = pairOf(id);
    if (!pair || !pair.original || !pair.standIn) return;
    const toGm = pair.original.get('layer') !== 'gmlayer';
    pair.original.set({ layer: toGm ? 'gmlayer' : 'objects' });
    pair.standIn.set({ layer: toGm ? 'objects' : 'gmlayer' });
  };
  const changed = (obj) => {
    const pair = pairOf(obj.id);
    if (!pair || !pair.original || !pair.standIn) return;
    const other = obj.id === pair.original.id ? pair.standIn : pair.original;
    other.set(copy(obj));
    pair.standIn.set(hidden);
  };
  on('ready', () => {
    if (!state.Bump || state.Bump.version !== 0.6) state.Bump = { version: 0.6, config: { autoPush: false, autoSlave: false, noBars: false, autoUnslave: false, noLight: false }, mirrored: {} };
    on('chat:message', (msg) => {
      if (msg.type !== 'api' || !/^!bump(-slave)?\\b/.test(msg.content) || !playerIsGM(msg.playerid)) return;
      for (const s of msg.selected || []) /^!bump-slave/.test(msg.content) ? slave(s._id, /--push/.test(msg.content)) : bump(s._id);
    });
    on('change:graphic', changed);
    on('destroy:graphic', (obj) => {
      const original = Object.prototype.hasOwnProperty.call(pairs(), obj.id) ? obj.id : Object.keys(pairs()).find((key) => pairs()[key] === obj.id);
      if (original === undefined) return;
      const standIn = getObj('graphic', pairs()[original]);
      delete pairs()[original];
      if (standIn) standIn.remove();
    });
    if (typeof TokenMod !== 'undefined' && TokenMod.ObserveTokenChange) TokenMod.ObserveTokenChange(changed);
  });
  return { Slave: (ids, push = false) => ids.forEach((id) => slave(id, push)), Bump: (ids) => ids.forEach(bump) };
})();
`;

/**
 * ChatSetAttr (its README): `!setattr`, `!modattr` (adds to the number there) and `!delattr`, on the
 * characters of the selected tokens (`--sel`) or of `--charid ID,ID`, with `--name|current|max`
 * pairs (`#` for `|` too). It writes through the API (setWithWorker, its default "use workers"), so
 * no Roll20 event fires; a missing attribute is created with createObj. Its observers hear each
 * write: `add` (the new attribute, before its value is set), `change` (the attribute, and a plain
 * copy of it before the write), `destroy` (the attribute removed). The first character is done at
 * once, each next one 50 ms later. `--silent` sends no feedback. Declared with a top-level `const`.
 */
export const CHATSETATTR_STAND_IN = `
const ChatSetAttr = (() => {
  const observers = { add: [], change: [], destroy: [] };
  const tell = (event, obj, prev) => observers[event].forEach((fn) => fn(obj, prev));
  const controls = (playerid, character) => playerid === 'API' || playerIsGM(playerid)
    || String(character.get('controlledby')).split(',').some((id) => id === playerid || id === 'all');
  const parse = (content) => {
    const opts = { ids: [], pairs: [] };
    for (const part of content.split(/\\s+--/).slice(1)) {
      const word = part.trim();
      if (word === 'sel' || word === 'silent') opts[word] = true;
      else if (word.startsWith('charid ')) opts.ids.push(...word.slice(7).split(/\\s*,\\s*/).filter(Boolean));
      else {
        const [name, current, max] = word.split(/[|#]/);
        const value = {};
        if (current !== undefined && (current !== '' || max === undefined)) value.current = current;
        if (max !== undefined) value.max = max;
        opts.pairs.push([name.trim(), value]);
      }
    }
    return opts;
  };
  const attributesOf = (charid) => findObjs({ _type: 'attribute', _characterid: charid });
  const onCharacter = (mode, charid, pairs, feedback) => {
    const own = attributesOf(charid);
    for (const [name, value] of pairs) {
      let attr = own.find((a) => String(a.get('name')).toLowerCase() === name.toLowerCase());
      if (mode === 'del') {
        if (!attr) continue;
        attr.remove();
        tell('destroy', attr);
        feedback.push('deleted ' + name);
        continue;
      }
      if (!attr) {
        attr = createObj('attribute', { characterid: charid, name });
        own.push(attr);
        tell('add', attr);
      }
      const next = {};
      for (const which of Object.keys(value)) {
        if (mode === 'mod') {
          const sum = parseFloat(value[which]) + parseFloat(attr.get(which) || '0');
          if (Number.isNaN(sum)) continue;
          next[which] = String(sum);
        } else next[which] = String(value[which]);
      }
      if (Object.keys(next).length === 0) continue;
      const prev = JSON.parse(JSON.stringify(attr));
      attr.setWithWorker(next);
      tell('change', attr, prev);
      feedback.push(name + ' to ' + attr.get('current'));
    }
  };
  on('ready', () => {
    on('chat:message', (msg) => {
      const command = msg.type === 'api' ? /^!(set|mod|del)attr\\b/.exec(msg.content) : null;
      if (!command) return;
      const opts = parse(msg.content);
      const ids = [...opts.ids];
      if (opts.sel) for (const s of msg.selected || []) {
        const token = getObj('graphic', s._id);
        if (token && token.get('represents')) ids.push(token.get('represents'));
      }
      const characters = [...new Set(ids)].map((id) => getObj('character', id)).filter((c) => c && controls(msg.playerid, c));
      const feedback = [];
      const work = (i) => {
        if (i >= characters.length) {
          if (!opts.silent) sendChat('ChatSetAttr', '/w gm Setting attributes: ' + (feedback.join(', ') || 'nothing to do.'), null, { noarchive: true });
          return;
        }
        onCharacter(command[1], characters[i].id, opts.pairs, feedback);
        if (i + 1 < characters.length) setTimeout(() => work(i + 1), 50);
        else work(i + 1);
      };
      work(0);
    });
  });
  return {
    registerObserver: (event, fn) => {
      if (typeof fn === 'function' && Object.prototype.hasOwnProperty.call(observers, event)) observers[event].push(fn);
      else log('ChatSetAttr event registration unsuccessful. Please check the documentation.');
    },
  };
})();
`;
