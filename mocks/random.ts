// Small deterministic random sources, so a seeded mock replays the same ids and dice every run.

/** mulberry32: a 32-bit PRNG, good enough for dice and ids, and reproducible from one integer. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Roll20 ids are Firebase push ids: 20 characters of this alphabet, starting with '-'.
const PUSH_CHARS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** Ids shaped like Roll20's ("-N" + 18 characters): a counter keeps them sortable by creation, as Roll20's are. */
export function createIdSource(seed: number): () => string {
  const random = mulberry32(seed ^ 0x5bd1e995);
  // Start the counter somewhere seeded, so ids differ in their first characters as Roll20's do.
  let counter = 64 ** 5 + Math.floor(random() * 30 * 64 ** 5);
  return () => {
    counter += 1;
    let stamp = '';
    for (let n = counter, i = 0; i < 6; i++, n = Math.floor(n / 64)) stamp = PUSH_CHARS[n % 64] + stamp;
    let tail = '';
    for (let i = 0; i < 12; i++) tail += PUSH_CHARS[Math.floor(random() * 64)];
    return `-N${stamp}${tail}`;
  };
}
