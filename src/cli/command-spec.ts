import type { CliIo, Parsed } from "./io.js";

/** One subcommand: how it is called (commander flags) and what it does with what was parsed. */
export interface CommandSpec {
  name: string;
  summary: string;
  /** What follows `utility <name>` in the usage line. */
  usage: string;
  /** Commander's operand syntax and its description, e.g. ["<paths...>", "…"]. */
  arguments?: [string, string];
  options: Array<[flags: string, description: string]>;
  run(parsed: Parsed, io: CliIo): number | Promise<number>;
}
