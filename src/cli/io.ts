/** What a CLI command may touch. Tests pass an in-memory one; `main.ts` passes the process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** stdout is a terminal (a progress line on stderr is then worth showing). */
  stdoutIsTTY?: boolean;
  /** The clock (epoch ms), for progress and relative dates; tests pass their own. */
  now?: () => number;
}

/** A mistake in how the command was called, or a file it cannot find: one line on stderr and exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** What commander parsed for a subcommand: its options (camelCase keys) and its operands. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Exit codes (README): 0 fine, 1 a finding or a refusal, 2 a usage error or a missing file. */
export const EXIT = { ok: 0, finding: 1, usage: 2 } as const;

/** The shape version every `--json` output carries, so scripts can tell what they read. */
export const JSON_VERSION = 1;

/** Prints a `--json` result: the object, with `version` first. */
export function printJson(io: CliIo, value: object): void {
  io.stdout(`${JSON.stringify({ version: JSON_VERSION, ...value }, null, 2)}\n`);
}
