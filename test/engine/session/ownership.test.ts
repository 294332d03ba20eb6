/**
 * One session machine owns the state (SPEC §15, issue 19): no code outside
 * src/engine/session/ assigns a field of it. The state's types are read-only
 * outside the machine, so such an assignment does not compile; this test
 * shows each way of writing state is caught by the types, and that no file
 * outside the machine reaches for the mutable (`…Draft`) types or casts the
 * read-only away.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";

const SRC = join(ROOT, "src");
const MACHINE = join(SRC, "engine", "session");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Type-checks `code` as a file of src/hooks/ (outside the machine) against the real state types; the 0-based lines with an error. */
function compileLines(code: string): number[] {
  const file = join(SRC, "hooks", "__ownership_probe__.ts");
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? code : read(name));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, source).map((d) => source.getLineAndCharacterOfPosition(d.start ?? 0).line);
}

const HEADER = `import type { SessionState, ScopeState } from "../engine/session/state.js";
declare const session: SessionState;
declare const scope: ScopeState;
`;

const WRITES: Array<[string, string]> = [
  ["a field of the session", "session.manualGate = true;"],
  ["a field of a scope", "session.main.step = 3;"],
  ["a field of a scope held apart", "scope.offset = 10;"],
  ["a field deleted", "delete scope.spend;"],
  ["a count raised", "session.main.refusals += 1;"],
  ["a count stepped", "scope.step++;"],
  ["an agent's scope put in place", "session.agents['a1'] = scope;"],
  ["a pending call put in place", "scope.pending['t1'] = scope.history[0]!;"],
  ["a call pushed into the history", "scope.history.push(scope.history[0]!);"],
  ["a skill pushed into the sources", "scope.sources.push(scope.sources[0]!);"],
  ["spend counted in place", "session.spend!.tokens.input = 1;"],
];
const READ = "export const step: number = session.main.step + scope.history.length;";

describe("only the session machine writes the state", () => {
  // One program for every probe (compiling is the slow part): each write on a line of its own, a read last.
  const lines = [...HEADER.trimEnd().split("\n"), ...WRITES.map(([, line]) => line), READ];
  const first = HEADER.trimEnd().split("\n").length;
  const errors = new Set(compileLines(lines.join("\n")));

  it.each(WRITES.map(([what], i) => [what, i] as const))("%s does not compile outside the machine", (_what, i) => {
    expect(errors.has(first + i)).toBe(true);
  });

  it("reading the state compiles (the probe itself is sound)", () => {
    for (let line = 0; line < first; line++) expect(errors.has(line)).toBe(false);
    expect(errors.has(lines.length - 1)).toBe(false);
  });

  it("no file outside src/engine/session uses the mutable types or casts the read-only away", () => {
    const outside = sources(SRC).filter((f) => !f.startsWith(MACHINE));
    const offenders = outside.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((text, i) => ({ at: `${relative(ROOT, file)}:${i + 1}`, text }))
        .filter(({ text }) => /\b(SessionDraft|ScopeDraft|RanCallDraft)\b|as unknown as (Session|Scope)State/.test(text)),
    );
    expect(offenders).toEqual([]);
  });
});
