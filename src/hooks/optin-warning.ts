import { existsSync } from "node:fs";
import { join } from "node:path";
import { claudeFolders } from "../claude/places.js";
import { checkPaths } from "../optin/check-files.js";
import { formatProblemLine } from "../optin/schema.js";

/** At most this many problems are spelled out; `utility check` lists them all. */
const SHOWN = 3;

/** The `skills/` and `agents/` folders Claude Code loads from (src/claude/places.ts: the project walk, --add-dir, the user's, the managed one) that exist. */
export function optInFolders(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const { projectClaude, user, managed } = claudeFolders(env, cwd);
  const folders = [...projectClaude, user, managed].flatMap((dir) => [join(dir, "skills"), join(dir, "agents")]);
  return [...new Set(folders)].filter((folder) => existsSync(folder));
}

/**
 * One warning at session start when a skill or agent the session can load
 * has `utility_*` frontmatter the gate cannot read (a misspelled key, a bad
 * value): it never blocks, it says what the gate will do with it. Undefined
 * when every file reads.
 */
export async function optInWarning(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const folders = optInFolders(cwd, env);
  if (folders.length === 0) return undefined; // no file to read: the reader is not even loaded
  let problems;
  try {
    const reader = await import("../optin/read.js");
    problems = checkPaths(folders, cwd, reader).flatMap((f) => f.problems);
  } catch {
    return undefined; // a warning the plugin cannot compute is no reason to hold up the session
  }
  if (problems.length === 0) return undefined;
  const more = problems.length - SHOWN;
  return [
    `utility: ${problems.length === 1 ? "a skill or agent has an opt-in" : `${problems.length} opt-in problems in skills or agents`} the gate cannot read; a scope it would gate refuses every tool call until it is fixed:`,
    ...problems.slice(0, SHOWN).map((p) => `  ${formatProblemLine(p)}`),
    ...(more > 0 ? [`  … and ${more} more: run \`utility check .claude\` to see them all.`] : []),
  ].join("\n");
}
