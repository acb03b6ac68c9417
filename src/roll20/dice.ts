// Rolls through Roll20's own dice, so every roll is a genuine Roll20 roll.

/** Rolls `count` d100s in one message and answers with their totals. */
export function rollPercentiles(count: number): Promise<number[]> {
  if (count <= 0) return Promise.resolve([]);
  const expression = Array.from({ length: count }, () => '[[1d100]]').join(' ');
  return new Promise((resolve, reject) => {
    sendChat('DefenseRound', expression, (operations) => {
      const rolls = operations[0]?.inlinerolls ?? [];
      const totals = rolls.map((roll) => roll.results.total);
      if (totals.length !== count || totals.some((total) => !Number.isInteger(total))) {
        reject(new Error(`Roll20 answered ${totals.length} rolls for ${count} asked`));
      } else {
        resolve(totals);
      }
    });
  });
}
