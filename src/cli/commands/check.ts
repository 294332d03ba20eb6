/**
 * `utility check PATH… [--json]`: validates the opt-in frontmatter (SPEC §5)
 * of skills and agents offline, with the same rules and messages the gate
 * uses (src/optin/check-files.ts).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";
import { checkPaths } from "../../optin/check-files.js";
import * as reader from "../../optin/read.js";
import { formatProblemLine } from "../../optin/schema.js";

function runCheck({ values, positionals: paths }: Parsed, io: CliIo): number {
  const missing = paths.find((path) => !existsSync(resolve(io.cwd, path)));
  if (missing !== undefined) throw new UsageError(`cannot read ${missing}: no file or folder at this path.`);
  const files = checkPaths(paths, io.cwd, reader);
  const problems = files.flatMap((f) => f.problems);
  if (values.json) {
    printJson(io, { files });
    return problems.length > 0 ? 1 : 0;
  }
  for (const p of problems) io.stdout(`${formatProblemLine(p)}\n`);
  for (const w of files.flatMap((f) => f.warnings ?? [])) io.stdout(`warning: ${w}\n`);
  const n = files.length;
  const checked = `checked ${n} file${n === 1 ? "" : "s"}`;
  if (problems.length > 0) {
    const bad = files.filter((f) => f.problems.length > 0).length;
    io.stdout(`${checked}, ${problems.length} problem${problems.length === 1 ? "" : "s"} in ${bad} file${bad === 1 ? "" : "s"}\n`);
    return 1;
  }
  const gated = files.filter((f) => f.optIn?.gated).length;
  io.stdout(`${checked}, no problems${gated > 0 ? ` (${gated} gated)` : ""}\n`);
  if (n === 0) io.stderr(`utility check: no SKILL.md or agents/*.md found under ${paths.join(", ")}\n`);
  return 0;
}

export const CHECK: CommandSpec = {
  name: "check",
  summary: "validate the opt-in frontmatter of skills and agents (a file or a folder)",
  usage: "PATH... [--json]",
  arguments: ["<paths...>", "a SKILL.md, an agent .md, or a folder searched for them"],
  options: [["--json", "print JSON"]],
  run: runCheck,
};
