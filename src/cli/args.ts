import { UsageError } from "./io.js";

export function requireOption(value: string | boolean | undefined, name: string, usage: string): string {
  if (typeof value !== "string" || value === "") throw new UsageError(`missing --${name}. Usage: ${usage}`);
  return value;
}

/** An optional string option's value (commander leaves flags it was not given undefined). */
export function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}
