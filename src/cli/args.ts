import { UsageError } from "./io.js";

const given = (value: string | boolean | undefined): value is string => typeof value === "string" && value !== "";

/** Names in words: `a`, `a and b`, `a, b and c`. */
function listed(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Every required option is given; else one usage error naming all that are missing, not just the first. */
export function requireOptions(options: ReadonlyArray<[value: string | boolean | undefined, name: string]>, usage: string): void {
  const missing = options.filter(([value]) => !given(value)).map(([, name]) => `--${name}`);
  if (missing.length > 0) throw new UsageError(`missing ${listed(missing)}. Usage: ${usage}`);
}

/** An optional string option's value (commander leaves flags it was not given undefined). */
export function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}
