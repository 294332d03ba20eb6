// Types for pool.mjs, so its test (test/scripts/bench) calls it as the command line does.

/** A client bench run as `client.mjs --out` writes it: the rows that kept their calls. */
export interface ClientRun {
  /** `against`: the mode's twin in the same run (client.mjs --otlp: the same plugin with the export off). */
  rows: { mode: string; base: string; prefixBytes: number; against?: string; gapsByRound: number[][] }[];
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
  /** For a mode with a twin: the twin's name, the mode's median call minus the twin's (ms), its middle 95% of draws. */
  against?: string;
  overAgainstMs?: number;
  overAgainstMsCi95?: [number, number];
}

/** Every mode but "no plugin" and the bare hook, over the calls of every run that has it. */
export declare function pool(runs: ClientRun[]): PooledMode[];
