/**
 * mulberry32: a small seeded PRNG, uniform in [0, 1). Tests and benchmarks that draw inputs (kill
 * points, fuzz cases, a URL corpus) use it so a failing or measured run can be replayed exactly.
 * @param seed any 32-bit integer
 * @returns a function giving the next number in [0, 1)
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
