// Rolls through Roll20's own dice, so every roll is a genuine Roll20 roll.
import { newJob } from './visible';

/** Rolls one die per entry (its sides) in one message and answers with their totals, in order. */
export function rollDice(sides: readonly number[]): Promise<number[]> {
  if (sides.length === 0) return Promise.resolve([]);
  const expression = sides.map((n) => `[[1d${n}]]`).join(' ');
  return new Promise((resolve, reject) => {
    sendChat('DefenseRound', expression, (operations) => {
      const rolls = operations[0]?.inlinerolls ?? [];
      const totals = rolls.map((roll) => roll.results.total);
      if (totals.length !== sides.length || totals.some((total) => !Number.isInteger(total))) {
        reject(new Error(`Roll20 answered ${totals.length} rolls for ${sides.length} asked`));
      } else {
        // What comes after the roll is a job of its own: the table may have changed while it was out.
        newJob();
        resolve(totals);
      }
    });
  });
}
