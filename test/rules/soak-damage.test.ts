import { describe, it, expect } from 'vitest';
import { defensiveStanceReduction, resolveSoakHit, type SoakArmor, type SoakHit } from '../../src/rules/soak/hit';

const noArmor = (over: Partial<SoakArmor> = {}): SoakArmor => ({
  soakPercent: 0, protection: 0, armorReduction: 0, naturalReduction: 0, ...over,
});
const hit = (over: Partial<SoakHit>): SoakHit => ({
  amount: 0, track: 'physical', piercePercent: 0, armor: null, stanceReduction: 0, ...over,
});

describe('The Defensive Round worked example: Bob, 70 Vitality, Soak 20, Physical 100, Defense 30, hit 200', () => {
  const outcome = resolveSoakHit(hit({
    amount: 200, armor: { soakPercent: 20, protection: 100, armorReduction: 30, naturalReduction: 0 },
  }));

  it('200 -> 160 -> 60 -> 30: Bob loses 30 Vitality', () => {
    expect(outcome.vitalityLoss).toBe(30);
    expect(outcome.steps).toEqual([
      { kind: 'soak', soakPercent: 20, before: 200, after: 160 },
      { kind: 'protection', track: 'physical', protection: 100, before: 160, after: 60 },
      { kind: 'armor-reduction', track: 'physical', reduction: 30, before: 60, after: 30 },
      { kind: 'vitality-loss', pierced: 0, throughArmor: 30, loss: 30 },
      { kind: 'protection-wear', track: 'physical', afterSoak: 160, wearPercent: 25, wear: 40, before: 100, after: 60 },
    ]);
  });

  it('Physical wears 25% of the 160 after soak: 100 -> 60', () => {
    expect(outcome.protectionAfter).toBe(60);
  });
});

describe('piercing (rules.md step 1)', () => {
  it('Ruling: 100 at 20% piercing is 20 pierced and 80 to soak (the seed\'s "60" is a slip)', () => {
    const outcome = resolveSoakHit(hit({
      amount: 100, piercePercent: 20, armor: noArmor({ soakPercent: 50, protection: 10 }),
    }));
    expect(outcome.steps[0]).toEqual({ kind: 'pierce', amount: 100, piercePercent: 20, pierced: 20, rest: 80 });
    expect(outcome.steps[1]).toEqual({ kind: 'soak', soakPercent: 50, before: 80, after: 40 });
    // 40 - 10 Physical = 30, plus 20 pierced
    expect(outcome.vitalityLoss).toBe(50);
  });

  it('rounds the pierced part down', () => {
    const outcome = resolveSoakHit(hit({ amount: 9, piercePercent: 50 }));
    expect(outcome.steps[0]).toMatchObject({ pierced: 4, rest: 5 });
    expect(outcome.vitalityLoss).toBe(9);
  });

  it('the pierced part wears no armor', () => {
    const outcome = resolveSoakHit(hit({ amount: 100, piercePercent: 100, armor: noArmor({ protection: 50 }) }));
    expect(outcome.vitalityLoss).toBe(100);
    expect(outcome.protectionAfter).toBe(50);
  });

  it('Ruling: the pierced part skips natural defense and the defensive stance too', () => {
    const outcome = resolveSoakHit(hit({
      amount: 100, piercePercent: 50, armor: noArmor({ naturalReduction: 10 }), stanceReduction: 5,
    }));
    // 50 pierced untouched; 50 - 10 natural - 5 stance = 35
    expect(outcome.vitalityLoss).toBe(85);
    expect(outcome.steps).toContainEqual({ kind: 'natural-reduction', track: 'physical', reduction: 10, before: 50, after: 40 });
    expect(outcome.steps).toContainEqual({ kind: 'defensive-stance', reduction: 5, before: 40, after: 35 });
  });

  it('shows no pierce step without piercing', () => {
    expect(resolveSoakHit(hit({ amount: 10 })).steps.some((s) => s.kind === 'pierce')).toBe(false);
  });
});

describe('armor standing per track (rules.md step 2)', () => {
  it('Ruling: a magical hit with Magical 0 gets no soak, even with Soak 20', () => {
    const outcome = resolveSoakHit(hit({
      amount: 100, track: 'magical', armor: noArmor({ soakPercent: 20, protection: 0, armorReduction: 15 }),
    }));
    expect(outcome.vitalityLoss).toBe(100);
    expect(outcome.steps.some((s) => s.kind === 'soak')).toBe(false);
    expect(outcome.steps[0]).toEqual({ kind: 'armor-absent', track: 'magical', reason: 'never-there', amount: 100 });
  });

  it('the same armor with Magical above 0 soaks the magical hit and uses Spirit', () => {
    const outcome = resolveSoakHit(hit({
      amount: 100, track: 'magical', armor: noArmor({ soakPercent: 20, protection: 30, armorReduction: 15 }),
    }));
    // 100 x 80% = 80; 80 - 30 Magical = 50; 50 - 15 Spirit = 35
    expect(outcome.vitalityLoss).toBe(35);
    expect(outcome.protectionAfter).toBe(10);
  });

  it('worn-out armor is told apart from armor that was never there by its max', () => {
    const worn = resolveSoakHit(hit({ amount: 10, armor: noArmor({ protection: 0, protectionMax: 100 }) }));
    expect(worn.steps[0]).toMatchObject({ kind: 'armor-absent', reason: 'worn-out' });
    const never = resolveSoakHit(hit({ amount: 10, armor: noArmor({ protection: 0, protectionMax: 0 }) }));
    expect(never.steps[0]).toMatchObject({ kind: 'armor-absent', reason: 'never-there' });
  });

  it('a token with no character takes the hit unreduced, and says so', () => {
    const outcome = resolveSoakHit(hit({ amount: 80, armor: null }));
    expect(outcome).toEqual({
      vitalityLoss: 80,
      protectionAfter: null,
      steps: [
        { kind: 'armor-absent', track: 'physical', reason: 'no-character', amount: 80 },
        { kind: 'vitality-loss', pierced: 0, throughArmor: 80, loss: 80 },
      ],
    });
  });

  it('armor that is not standing is not worn and keeps its value', () => {
    expect(resolveSoakHit(hit({ amount: 80, armor: noArmor({ protection: 0 }) })).protectionAfter).toBe(0);
  });
});

describe('protection and wear (rules.md step 4)', () => {
  it('protection larger than the hit lets nothing through, and still wears', () => {
    const outcome = resolveSoakHit(hit({ amount: 20, armor: noArmor({ protection: 100 }) }));
    expect(outcome.vitalityLoss).toBe(0);
    // The Defensive Round: "If your character was dealt 20 damage past soak, your character's Physical decreases by 5."
    expect(outcome.protectionAfter).toBe(95);
  });

  it('wear rounds down and protection stops at 0', () => {
    expect(resolveSoakHit(hit({ amount: 7, armor: noArmor({ protection: 100 }) })).protectionAfter).toBe(99);
    expect(resolveSoakHit(hit({ amount: 1000, armor: noArmor({ protection: 10 }) })).protectionAfter).toBe(0);
  });

  it('uses protection as it stood before the hit', () => {
    // 100 - 40 Physical = 60 (not 100 - 15 after wear)
    expect(resolveSoakHit(hit({ amount: 100, armor: noArmor({ protection: 40 }) })).vitalityLoss).toBe(60);
  });
});

describe('Defense/Spirit and natural defense (rules.md step 5)', () => {
  it('Ruling: natural defense is only the fallback when the armor is not standing', () => {
    const standing = resolveSoakHit(hit({
      amount: 100, armor: noArmor({ protection: 10, armorReduction: 5, naturalReduction: 20 }),
    }));
    // 100 - 10 Physical - 5 Defense = 85: natural defense is not added on top
    expect(standing.vitalityLoss).toBe(85);
    expect(standing.steps.some((s) => s.kind === 'natural-reduction')).toBe(false);

    const wornOut = resolveSoakHit(hit({
      amount: 100, armor: noArmor({ protection: 0, protectionMax: 10, armorReduction: 5, naturalReduction: 20 }),
    }));
    // armor Defense stops working; natural defense takes its place
    expect(wornOut.vitalityLoss).toBe(80);
    expect(wornOut.steps.some((s) => s.kind === 'armor-reduction')).toBe(false);
  });

  it('natural spirit on a magical hit', () => {
    const outcome = resolveSoakHit(hit({ amount: 50, track: 'magical', armor: noArmor({ naturalReduction: 12 }) }));
    expect(outcome.steps).toContainEqual({ kind: 'natural-reduction', track: 'magical', reduction: 12, before: 50, after: 38 });
  });
});

describe('defensive stance (rules.md step 6)', () => {
  it('is 5% of Fortitude, rounded down, never negative', () => {
    expect(defensiveStanceReduction(100)).toBe(5);
    expect(defensiveStanceReduction(39)).toBe(1);
    expect(defensiveStanceReduction(19)).toBe(0);
    expect(defensiveStanceReduction(-40)).toBe(0);
  });

  it('Ruling: applies after Defense on a physical hit', () => {
    const outcome = resolveSoakHit(hit({
      amount: 200, armor: { soakPercent: 20, protection: 100, armorReduction: 30, naturalReduction: 0 }, stanceReduction: 5,
    }));
    expect(outcome.vitalityLoss).toBe(25);
    const kinds = outcome.steps.map((s) => s.kind);
    expect(kinds.indexOf('defensive-stance')).toBe(kinds.indexOf('armor-reduction') + 1);
  });

  it('Ruling: applies after Spirit on a magical hit', () => {
    const outcome = resolveSoakHit(hit({
      amount: 100, track: 'magical', armor: noArmor({ protection: 20, armorReduction: 10 }), stanceReduction: 7,
    }));
    expect(outcome.steps).toContainEqual({ kind: 'defensive-stance', reduction: 7, before: 70, after: 63 });
    expect(outcome.vitalityLoss).toBe(63);
  });

  it('Ruling: applies with no armor at all', () => {
    expect(resolveSoakHit(hit({ amount: 30, armor: null, stanceReduction: 4 })).vitalityLoss).toBe(26);
  });

  it('never makes the loss negative', () => {
    expect(resolveSoakHit(hit({ amount: 3, stanceReduction: 10 })).vitalityLoss).toBe(0);
  });
});

describe('out-of-range values (Clarifications (soak))', () => {
  it('armor values below 0 count as 0', () => {
    const outcome = resolveSoakHit(hit({
      amount: 50, armor: { soakPercent: -20, protection: -10, armorReduction: -5, naturalReduction: -7 },
    }));
    expect(outcome.vitalityLoss).toBe(50);
    expect(outcome.steps[0]).toMatchObject({ kind: 'armor-absent' });
  });

  it('negative Defense on standing armor adds nothing', () => {
    const outcome = resolveSoakHit(hit({ amount: 50, armor: noArmor({ protection: 10, armorReduction: -30 }) }));
    expect(outcome.vitalityLoss).toBe(40);
  });

  it('soak counts as 0..100', () => {
    const over = resolveSoakHit(hit({ amount: 50, armor: noArmor({ soakPercent: 150, protection: 10 }) }));
    expect(over.steps[0]).toEqual({ kind: 'soak', soakPercent: 100, before: 50, after: 0 });
    expect(over.vitalityLoss).toBe(0);
    const under = resolveSoakHit(hit({ amount: 50, armor: noArmor({ soakPercent: -50, protection: 10 }) }));
    expect(under.steps.some((s) => s.kind === 'soak')).toBe(false);
    expect(under.vitalityLoss).toBe(40);
  });

  it('piercing counts as 0..100', () => {
    expect(resolveSoakHit(hit({ amount: 50, piercePercent: 250, armor: noArmor({ protection: 40 }) })).vitalityLoss).toBe(50);
    expect(resolveSoakHit(hit({ amount: 50, piercePercent: -10, armor: noArmor({ protection: 40 }) })).vitalityLoss).toBe(10);
  });
});

describe('Ruling, revised: the armor is one piece (rules.md step 2)', () => {
  it('a goblin with Physical 20 and no Magical soaks a magical 20: 20 x 90% = 18, - 0 Magical = 18', () => {
    const goblin = { soakPercent: 10, protection: 0, protectionMax: 0, otherProtection: 20, otherProtectionMax: 20, armorReduction: 0, naturalReduction: 0 };
    const outcome = resolveSoakHit(hit({ amount: 20, track: 'magical', armor: goblin }));
    expect(outcome.vitalityLoss).toBe(18);
    expect(outcome.steps).toEqual([
      { kind: 'soak', soakPercent: 10, before: 20, after: 18 },
      { kind: 'protection', track: 'magical', protection: 0, before: 18, after: 18 },
      { kind: 'vitality-loss', pierced: 0, throughArmor: 18, loss: 18 },
    ]);
    expect(outcome.protectionAfter).toBe(0); // a track at 0 has nothing left to wear
  });

  it('Bob with Physical worn to 0 and Magical 40: 50 x 80% = 40, - 0 Physical = 40, - 30 Defense = 10', () => {
    const bob = { soakPercent: 20, protection: 0, protectionMax: 100, otherProtection: 40, otherProtectionMax: 40, armorReduction: 30, naturalReduction: 7 };
    expect(resolveSoakHit(hit({ amount: 50, armor: bob })).vitalityLoss).toBe(10);
  });

  it('with both protections at 0 the armor is destroyed: no soak, no Defense, natural defense instead', () => {
    const worn = { soakPercent: 20, protection: 0, protectionMax: 100, otherProtection: 0, otherProtectionMax: 40, armorReduction: 30, naturalReduction: 7 };
    const outcome = resolveSoakHit(hit({ amount: 50, armor: worn }));
    expect(outcome.vitalityLoss).toBe(43);
    expect(outcome.steps[0]).toEqual({ kind: 'armor-absent', track: 'physical', reason: 'worn-out', amount: 50 });
  });
});

describe('parsing a hit (The Defensive Round edition)', () => {
  it('a bare hit and the same hit with every flag at its default make the same order', async () => {
    const { soakDamageOrder } = await import('../../src/rules/soak/hit');
    const { soak } = await import('../../src/rules/soak/index');
    const { parseLine } = await import('../../src/text/args');
    const { orderOf } = await import('../../src/commands/orders');
    const parse = (text: string) => soakDamageOrder(orderOf(parseLine(text), soak.hit.flags, soak.hit.amount));
    const bare = parse('!damage 12');
    expect(bare).toEqual({ amount: 12, track: 'physical', piercePercent: 0, to: 'vitality', instantKill: false, defenseOverride: null });
    expect(parse('!damage 12 --type physical --pierce 0 --to vitality')).toEqual(bare);
    // The bare hit without its amount is refused as the flagged one is.
    expect(() => parse('!damage')).toThrow('no damage amount given');
    expect(() => parse('!damage --type physical')).toThrow('no damage amount given');
    expect(() => parse('!damage 2d6')).toThrow('inline roll like [[2d6+3]]');
  });
});
