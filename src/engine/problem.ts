/**
 * A rejection that a model or a person can act on: which field, what was
 * found, what is expected, in one sentence.
 */
export interface Problem {
  field: string;
  found: string;
  expected: string;
  message: string;
  /** Set on an action name that is not an action, wherever it was written: the gate refuses it as unknown_action. */
  kind?: "unknown_action";
}

export function problem(field: string, found: string, expected: string, message?: string): Problem {
  return { field, found, expected, message: message ?? `${field}: found ${found}; expected ${expected}.` };
}

export type Result<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T>(...problems: Problem[]): Result<T> => ({ ok: false, problems });

/** Shows a found string so that look-alike characters and invisible ones are visible. */
export function showFound(value: string): string {
  const escaped = value.replace(/[^\x20-\x7e]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
  return JSON.stringify(escaped).replace(/\\\\u\{/g, "\\u{");
}

interface ZodLikeIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
  input?: unknown;
}

function describeInput(input: unknown): string {
  if (input === undefined) return "nothing";
  if (typeof input === "string") return showFound(input);
  try {
    const text = JSON.stringify(input);
    return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  } catch {
    return String(input);
  }
}

/** Turns zod issues into problems; zod 4 reports the offending input when asked (`reportInput`). */
export function problemsFromIssues(issues: readonly ZodLikeIssue[], root = "input"): Problem[] {
  return issues.map((issue) => {
    const field =
      issue.path.length > 0
        ? issue.path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i > 0 ? "." : ""}${String(p)}`)).join("")
        : root;
    const found = describeInput(issue.input);
    return { field, found, expected: issue.message, message: `${field}: ${issue.message} (found ${found}).` };
  });
}
