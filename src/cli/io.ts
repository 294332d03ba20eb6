/** What a CLI command may touch. Tests pass an in-memory one; `main.ts` passes the process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): string;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** A mistake in how the command was called: one line on stderr and exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export type CommandHandler = (args: string[], io: CliIo) => number | Promise<number>;
