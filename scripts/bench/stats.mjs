// The few statistics the benchmarks share, and SPEC §11's ungated budget: one definition of each.

/** SPEC §11: an ungated call costs at most this much of one bare `node -e 0` PreToolUse hook. */
export const UNGATED_BUDGET = 0.3;

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The value at fraction `q` of the sorted values (nearest rank). */
export const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
};

/**
 * A mode's cost per call (SPEC §11), from the calls given: its median call
 * against the median without any plugin, and that overhead as a share of the
 * bare `node -e 0` hook's overhead in the same calls' runs.
 */
export function overheadOf({ none, bare, mode }) {
  const noneMs = median(none);
  const perCall = median(mode);
  const bareMs = median(bare) - noneMs;
  return { perCall, overhead: perCall - noneMs, bare: bareMs, ratio: (perCall - noneMs) / bareMs };
}

/** The seed of every bootstrap over rounds (scripts/bench/client.mjs, pool.mjs). */
export const BOOTSTRAP_SEED = 0x2f6b1d3;

/** Numbers in [0, 1) from a seed (mulberry32): the same seed, the same draws, so a run's spread can be checked. */
export function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` round indexes drawn with replacement: one draw of a bootstrap over rounds. */
export const redrawn = (count, random) => Array.from({ length: count }, () => Math.floor(random() * count));
