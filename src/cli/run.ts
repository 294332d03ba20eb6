import { COMMANDS, HELP } from "./commands.js";
import { UsageError, type CliIo } from "./io.js";

/** Runs one CLI invocation; usage errors are one line and exit 2, never a stack trace. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout)(HELP);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(", ")}.`);
    return await command(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`utility ${name}: ${message.split("\n")[0]}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
