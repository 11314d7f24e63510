/** The repository root (two levels above scripts/bench/), where `tsx` and server/ are found. */
export const repoRoot = new URL('../..', import.meta.url).pathname;
