/**
 * The `utility` command line, on commander: `--help`/`-h` everywhere, `--version`,
 * did-you-mean for unknown commands and options, negative numbers as option
 * values (`--floor -1`). Every mistake is one line on stderr and exit 2; a
 * finding or a refusal is exit 1; a stack trace never reaches the user.
 */
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import type { CommandSpec } from "./command-spec.js";
import { COMMANDS } from "./commands.js";
import { runCommand } from "./commands/command.js";
import { EXIT, UsageError, type CliIo } from "./io.js";

export const VERSION: string = packageJson.version;

const DESCRIPTION = "score agent actions with U(a) = Gain − λ1·StepCost − λ2·Uncertainty − λ3·Redundancy";
/** The subcommand behind the plugin's `/utility` command: not for people, so not in the help. */
const HIDDEN_COMMAND = "command";

/** Commander's own exits that are not mistakes. */
const CLEAN_EXITS = new Set(["commander.helpDisplayed", "commander.help", "commander.version"]);

function configure(command: Command, io: CliIo): Command {
  return command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text), outputError: () => undefined });
}

function addSpec(program: Command, spec: CommandSpec, io: CliIo, done: (code: number) => void): void {
  const command = configure(program.command(spec.name), io).description(spec.summary).usage(spec.usage);
  if (spec.arguments) command.argument(spec.arguments[0], spec.arguments[1]);
  for (const [flags, description] of spec.options) command.option(flags, description);
  command.action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    done(await spec.run({ values: self.opts(), positionals: self.args }, io));
  });
}

/** The program for one invocation; `done` receives the subcommand's exit code. */
export function buildProgram(io: CliIo, done: (code: number) => void): Command {
  const program = configure(new Command("utility"), io)
    .description(DESCRIPTION)
    .version(VERSION, "-V, --version", "print the version")
    .usage("<command> [options]")
    .enablePositionalOptions();
  for (const spec of COMMANDS) addSpec(program, spec, io, done);
  return program;
}

/** One line for a commander mistake: what is wrong, the suggestion if any, and how the command is used. */
function usageLine(error: CommanderError, argv: string[]): string {
  const message = error.message
    .replace(/^error: /, "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/\.+$/, "");
  const spec = COMMANDS.find((c) => c.name === argv[0]);
  if (!spec) return `utility: ${message}. Usage: utility <command> [options]; \`utility --help\` lists the commands.\n`;
  return `utility ${spec.name}: ${message}. Usage: utility ${spec.name} ${spec.usage}\n`;
}

/** Runs one invocation and returns its exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === HIDDEN_COMMAND) return runCommand(argv.slice(1), io);
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => (code = c));
  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (CLEAN_EXITS.has(error.code)) return EXIT.ok;
      io.stderr(usageLine(error, argv));
      return EXIT.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`utility ${argv[0]}: ${message.split("\n")[0]}\n`);
    return error instanceof UsageError ? EXIT.usage : EXIT.finding;
  }
}
