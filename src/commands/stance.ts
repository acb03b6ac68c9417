// `!stance defensive|reactive|none [--ids ...]`: set the targets' stance; with no mode, show it.
import { SOAK_STANCES, isSoakStance, type SoakStance } from '../rules/soak/stance';
import { readToken } from '../roll20/read';
import { writeMarkers } from '../roll20/write';
import { UsageError, checkFlags, idsArg, type FlagSpec } from './parse';
import { peekRecord, pruneRecord, reply, tokenRecord, type CommandContext } from './context';
import type { CommandHandler } from './dispatch';
import { deliver } from './deliver';
import { markersForStance } from './conditionMarkers';
import { resolveTargets } from './targets';

const USAGE = '!stance defensive|reactive|none [--ids ID ...] (no mode: show the selected tokens\' stances)';

const FLAGS: Record<string, FlagSpec> = { ids: { kind: 'list' }, help: { kind: 'switch' } };

const STANCE_EFFECT: Record<string, string> = {
  defensive: '5% of Fortitude off every hit; defensive skills on itself only (one per attacker per round); no counter attacks',
  reactive: 'one Reaction Check per attacker per round; a success allows a counter attack, skills on allies and aided checks',
  none: 'no stance',
};

function stanceOf(ctx: CommandContext, tokenId: string): string {
  return peekRecord(ctx.app, tokenId)?.stance ?? 'none';
}

export const stanceCommand: CommandHandler = {
  usage: USAGE,
  help: [`Defensive: ${STANCE_EFFECT.defensive}. Reactive: ${STANCE_EFFECT.reactive}.`],
  run(ctx) {
    const settings = ctx.app.store.settings;
    if (settings.edition === 'threshold') throw new UsageError('the threshold edition has no stances');
    checkFlags(ctx.parsed, FLAGS, settings.edition);
    const [word, ...extra] = ctx.parsed.positionals;
    if (extra.length > 0) throw new UsageError(`one stance only (got "${ctx.parsed.positionals.join(' ')}")`);
    if (word !== undefined && !isSoakStance(word.toLowerCase())) {
      throw new UsageError(`unknown stance "${word}" (stances: ${SOAK_STANCES.join(', ')})`);
    }
    // No mode: the usage, with the targets' stances when there are targets (commands.md).
    const nothingTargeted = (ctx.msg.selected ?? []).length === 0 && idsArg(ctx.parsed) === undefined;
    if (word === undefined && nothingTargeted) throw new UsageError('no stance given');
    const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed));
    if (word === undefined) {
      const lines = targets.map(({ token, character }) => `${readToken(token, character, settings).name}: ${stanceOf(ctx, token.id)}`);
      reply(ctx, `Stances: ${lines.join('; ')}.${notes.length ? ` (${notes.join('; ')})` : ''} Usage: ${USAGE}`);
      return;
    }
    const stance = word.toLowerCase() as SoakStance;
    for (const { token, character } of targets) {
      const snapshot = readToken(token, character, settings);
      const record = tokenRecord(ctx.app, token.id);
      const before = record.stance ?? 'none';
      record.stance = stance === 'none' ? undefined : stance;
      pruneRecord(ctx.app, token.id);
      const markers = markersForStance(snapshot.statusmarkers, stance, settings);
      writeMarkers(snapshot, markers);
      const title = stance === 'none' ? `${snapshot.name} drops its stance` : `${snapshot.name} takes the ${stance} stance`;
      deliver(settings, snapshot, {
        card: { title, rows: [{ label: 'Stance', lines: [`${before} -> ${stance}`, STANCE_EFFECT[stance] ?? ''] }] },
        shortLine: `${title}.`,
      });
    }
    if (notes.length > 0) reply(ctx, `${notes.join('; ')}.`);
  },
};
