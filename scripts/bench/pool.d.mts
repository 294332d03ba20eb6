// Types for pool.mjs, so its test (test/scripts/bench) calls it as the command line does.

/** A client bench run as `client.mjs --out` writes it: the rows that kept their calls. */
export interface ClientRun {
  rows: { mode: string; base: string; prefixBytes: number; gapsByRound: number[][] }[];
}

export interface PooledMode {
  mode: string;
  /** How many of the runs had this mode, and their rounds in all. */
  runs: number;
  rounds: number;
  overheadMs: number;
  bareMs: number;
  /** The overhead against the bare `node -e 0` hook of the same runs. */
  ratio: number;
  /** The middle 95% of the ratio over 1000 draws of each run's rounds. */
  ci95: [number, number];
  /** For "utility ungated" (at each transcript size): the share of draws within the 0.3× budget. */
  ungatedMetInDraws?: number;
}

/** Every mode but "no plugin" and the bare hook, over the calls of every run that has it. */
export declare function pool(runs: ClientRun[]): PooledMode[];
