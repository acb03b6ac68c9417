// `!damage N [--type T] [--pierce P] [--to BAR] [--instant-kill] [--defense R] [--ids ...]`:
// one hit of N on each target through the active edition's pipeline (commands.md).
import { readToken } from '../roll20/read';
import { damageCard, damageShortLine } from '../render/damageCard';
import type { DamageTrack } from '../rules/soak/damageSteps';
import { reply, type CommandContext } from './context';
import type { CommandHandler } from './dispatch';
import { deliver } from './deliver';
import { checkFlags, choiceArg, flagValue, hasFlag, idsArg, integerArg, optionalInteger, UsageError, type FlagSpec } from './parse';
import { applySoakDamage, protectionPlaceOf, type SoakDamageOrder } from './soakDamage';
import { currentLife } from './tokenLife';
import { captureToken, recordApplication } from './history';
import { undoDamage } from './undo';
import type { Application } from '../state/history';
import { resolveTargets } from './targets';
import { barProblem } from './barProblem';

export const MAX_DAMAGE = 1_000_000;

const USAGE =
  '!damage N [--type physical|magical|energy|breath] [--pierce 0-100] [--to vitality|soul|power] [--instant-kill] [--defense success|fail|none] [--ids ID ...] (N: a whole number 0-1000000 or an inline roll like [[2d6+3]]); !damage --undo [--force]';

const FLAGS: Record<string, FlagSpec> = {
  type: { kind: 'one', editions: ['soak', 'threshold'] },
  pierce: { kind: 'one', editions: ['soak'] },
  to: { kind: 'one', editions: ['soak'] },
  'instant-kill': { kind: 'switch', editions: ['soak'] },
  defense: { kind: 'one', editions: ['soak', 'threshold'] },
  ids: { kind: 'list' },
  help: { kind: 'switch' },
  undo: { kind: 'switch' },
  force: { kind: 'switch' },
  hit: { kind: 'one', editions: ['threshold'] },
  situation: { kind: 'one', editions: ['threshold'] },
  mod: { kind: 'one', editions: ['threshold'] },
  attack: { kind: 'one', editions: ['opposed'] },
  ap: { kind: 'one', editions: ['opposed'] },
  'defense-mode': { kind: 'one', editions: ['opposed'] },
  'defense-roll': { kind: 'one', editions: ['opposed'] },
};

const TRACK_OF: Record<string, DamageTrack> = { physical: 'physical', magical: 'magical', energy: 'magical', breath: 'magical' };

export function parseSoakDamage(ctx: CommandContext): SoakDamageOrder {
  const parsed = ctx.parsed;
  checkFlags(parsed, FLAGS, ctx.app.store.settings.edition);
  const instantKill = hasFlag(parsed, 'instant-kill');
  if (parsed.positionals.length > 1) {
    throw new UsageError(`one amount only (got "${parsed.positionals.join(' ')}"); an expression must be an inline roll like [[2d6+3]]`);
  }
  const amountText = parsed.positionals[0];
  if (amountText === undefined && !instantKill) throw new UsageError('no damage amount given');
  const amount = amountText === undefined ? 0 : integerArg(amountText, 'the damage amount', 0, MAX_DAMAGE);
  const typeText = flagValue(parsed, 'type');
  const track = typeText === undefined ? 'physical' : TRACK_OF[choiceArg(typeText, '--type', Object.keys(TRACK_OF))]!;
  const to = choiceArg(flagValue(parsed, 'to') ?? 'vitality', '--to', ['vitality', 'soul', 'power'] as const);
  if (instantKill && to !== 'vitality') throw new UsageError('--instant-kill cannot be combined with --to soul or power');
  if (instantKill && amountText !== undefined) throw new UsageError('--instant-kill takes no amount: it drops Vitality to 0');
  // No armor is read for these hits, so a type or piercing would change nothing (refused, not ignored).
  if ((instantKill || to !== 'vitality') && (hasFlag(parsed, 'type') || hasFlag(parsed, 'pierce'))) {
    throw new UsageError(`--type and --pierce mean nothing with ${instantKill ? '--instant-kill' : `--to ${to}`}: no armor applies`);
  }
  const defenseText = flagValue(parsed, 'defense');
  return {
    amount,
    track,
    piercePercent: optionalInteger(parsed, 'pierce', 0, 100) ?? 0,
    to,
    instantKill,
    defenseOverride: defenseText === undefined ? null : choiceArg(defenseText, '--defense', ['success', 'fail', 'none'] as const),
  };
}

export const damageCommand: CommandHandler = {
  usage: USAGE,
  help: ['Applies one hit to each selected token (or --ids): piercing, soak, protection (which wears 25% of the damage after soak), Defense/Spirit, defensive stance. A pending !defend result is used up.'],
  run(ctx) {
    if (hasFlag(ctx.parsed, 'undo') || hasFlag(ctx.parsed, 'force')) {
      undoDamage(ctx);
      return;
    }
    const order = parseSoakDamage(ctx);
    const settings = ctx.app.store.settings;
    const anyTarget = ctx.gm || settings.playersTargetAny;
    const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed), { anyTarget });
    const refused: string[] = [...notes];
    const applied: Application['tokens'] = [];
    for (const { token, character } of targets) {
      const snapshot = readToken(token, character, settings);
      // Soul or Power damage needs only that bar to be a number; Vitality is then left untouched.
      const problem = barProblem(snapshot, order.to);
      const vitality = snapshot.bars.vitality.value ?? (order.to === 'vitality' ? null : 0);
      if (problem !== undefined || vitality === null) {
        refused.push(problem ?? `${snapshot.name}: Vitality is not a number`);
        continue;
      }
      const lifeBefore = currentLife(ctx.app, snapshot.id, snapshot.bars.vitality.value ?? 1);
      const place = protectionPlaceOf(ctx.app, snapshot, order);
      const before = captureToken(ctx.app, token, place);
      const outcome = applySoakDamage(ctx.app, snapshot, vitality, order);
      applied.push({ tokenId: token.id, name: snapshot.name, before, after: captureToken(ctx.app, token, place) });
      deliver(settings, snapshot, {
        card: damageCard(snapshot.name, order, outcome),
        shortLine: damageShortLine(snapshot.name, outcome, lifeBefore),
      });
    }
    if (applied.length > 0) recordApplication(ctx.app, { by: ctx.playerId, kind: 'damage', round: ctx.app.store.round.number, tokens: applied });
    if (refused.length > 0) reply(ctx, `Not applied to every target: ${refused.join('; ')}.`);
  },
};

