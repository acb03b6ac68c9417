// `--type` of `!damage`: which protection a hit meets (commands.md, "!damage"). Energy and breath
// attacks meet the magical protection in every edition that has armor tracks.
export const TRACK_OF: Readonly<Record<string, 'physical' | 'magical'>> = { physical: 'physical', magical: 'magical', energy: 'magical', breath: 'magical' };
