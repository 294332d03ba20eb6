import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parseCommandArgs<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`${message}. Usage: ${usage}`);
  }
}

export function requireOption(value: string | undefined, name: string, usage: string): string {
  if (value === undefined || value === "") throw new UsageError(`missing --${name}. Usage: ${usage}`);
  return value;
}
