// Done when (issue 5): on every real transcript in test/fixtures/transcripts,
// `replay --json` reports as many calls as the file has tool_use blocks (counted
// here by a naive scan), and no exact repeat where something in between could
// have changed the result. Each repeat expected is named below; so is every
// group of identical calls in one scope, with why it is not a repeat.
//
// What the fixtures hold, established by reading them line by line:
//
// spotter__short (2.1): a Bash and a Glob, both rejected by the user. No two calls alike.
// spotter__tool_heavy (2.1): six different calls. No two alike.
// viewer__1af7fc5e (1.0): three TodoWrite calls with different lists (bookkeeping: never a
//   repeat anyway), six Globs with six different patterns, two different Bash calls. No two alike.
// viewer__5c0375b4 (1.0): main's two Globs differ in `path`; the two subagents each read
//   /path/to/Demo/todo-app/package.json once (lines 20 and 36), but in different scopes.
// spotter__subagent (2.1, agent afb92ff as agent_progress lines):
//   - agent afb92ff, Read mix.exs at lines 40 and 48: not a repeat. The first never ran (its
//     result is "Sibling tool call errored"), and three Bash calls stand between (42, 44, 46).
//     Main's Read of the same file (line 24) is another scope.
// viewer__fe5e1c67 (1.0, five subagents as inline sidechain runs):
//   - subagent #2 (lines 38-123), Read page.tsx at 70 and 83: not a repeat. Two Edits of
//     page.tsx stand between (77, 80); they came back with "File has not been read yet",
//     but an errored call still counts as in between (the code cannot tell a refused edit
//     from a half-done one, and this re-read is exactly what Claude Code asked for).
//   - subagent #2, Edit page.tsx at 77, 80, 86 (same input): 77 and 80 errored, so they are
//     never originals; and each Edit is itself a write to that file.
//   - subagent #2, "npm run build" four times (402, 405, 408, 411): the inputs differ in
//     `description`, so they are not the same input (SPEC §7: deep equal); all four errored.
//   - subagent #3 (lines 125-222), Write todo.ts (130, 165), filters.ts (132, 167),
//     actions.ts (134, 169): Bash calls (157, 159, 162) between each pair. Write state.ts at
//     136, 171, 173: Bash between the first two; 171 errored and is a write itself.
//     Edit index.ts at 146 and 150: 146 errored, and a Read stands between (no harm) but 146
//     is never an original. Read index.ts at 148 and 218: Bash calls between.
//     "ls -la types/" at 157, 188, 209: descriptions differ.
//   - subagent #4 (lines 229-293), "npx tsc --noEmit" at 277 and 288: descriptions differ,
//     and an Edit and a MultiEdit stand between.
//   - subagent #5 (lines 295-429), Read src/types/index.ts at 328 and 369: Bash calls
//     between (331, 334, 339, 341). Write useTodos.ts at 354 and 375: 354 errored, and a
//     Write of Filter.tsx (361) stands between. BashOutput polls (394/397, 419/422): polling
//     is never a repeat.
//   Subagents #1-#3 ran in parallel (one message, three Tasks); 1.0 writes their lines one
//   run after another. Each is its own scope, as the hooks see them.
//
// So no fixture holds an exact repeat. The last test below shows that replay does find
// one in real data: the same session with the two failed Edits cut out.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ReplayReport, RepeatFinding } from "../../src/replay/types.js";
import { cli } from "../support/cli-io.js";
import { TRANSCRIPTS } from "../support/paths.js";
import { tempDir } from "../transcript/helpers.js";

interface ExpectedRepeat {
  scope: string;
  tool: string;
  input: unknown;
  firstLine: number;
  repeatLine: number;
}

interface Expected {
  calls: number;
  /** Calls per scope id, in the order the scopes first appear. */
  scopes: Record<string, number>;
  repeats: ExpectedRepeat[];
}

const EXPECTED: Record<string, Expected> = {
  "spotter__short.jsonl": { calls: 2, scopes: { main: 2 }, repeats: [] },
  "spotter__subagent.jsonl": { calls: 25, scopes: { main: 16, "agent:afb92ff": 9 }, repeats: [] },
  "spotter__tool_heavy.jsonl": { calls: 6, scopes: { main: 6 }, repeats: [] },
  "viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl": { calls: 12, scopes: { main: 12 }, repeats: [] },
  "viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl": {
    calls: 21,
    scopes: { main: 13, "sidechain:1": 2, "sidechain:2": 6 },
    repeats: [],
  },
  "viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl": {
    calls: 167,
    scopes: { main: 11, "sidechain:1": 8, "sidechain:2": 33, "sidechain:3": 39, "sidechain:4": 24, "sidechain:5": 52 },
    repeats: [],
  },
};

const fixtures = readdirSync(TRANSCRIPTS)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();

// ---- An independent, naive reading ----

type Json = Record<string, unknown>;

function naiveLines(text: string): Json[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Json);
}

/** Every tool_use block of the file, wherever it sits (agent_progress copies included), each id once, with its line and side. */
function naiveCalls(text: string): Array<{ id: string; name: string; input: unknown; line: number; sidechain: boolean }> {
  const found = new Map<string, { id: string; name: string; input: unknown; line: number; sidechain: boolean }>();
  naiveLines(text).forEach((json, i) => {
    const data = json.data as { type?: string; message?: Json } | undefined;
    const nested = json.type === "progress" && data?.type === "agent_progress" ? data.message : undefined;
    const content = ((nested ?? json).message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) return;
    for (const block of content as Json[]) {
      if (block.type !== "tool_use" || typeof block.id !== "string" || found.has(block.id)) continue;
      found.set(block.id, {
        id: block.id,
        name: String(block.name),
        input: block.input,
        line: i + 1,
        sidechain: nested !== undefined || json.isSidechain === true,
      });
    }
  });
  return [...found.values()];
}

/** Result text per tool_use id, naively. */
function naiveResults(text: string): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const json of naiveLines(text)) {
    const data = json.data as { type?: string; message?: Json } | undefined;
    const line = json.type === "progress" && data?.type === "agent_progress" ? data.message! : json;
    const content = (line.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as Json[]) {
      if (block.type !== "tool_result" || results.has(String(block.tool_use_id))) continue;
      const body =
        typeof block.content === "string"
          ? block.content
          : (block.content as Json[])
              .filter((b) => b.type === "text")
              .map((b) => String(b.text))
              .join("\n");
      results.set(String(block.tool_use_id), { text: body, isError: block.is_error === true });
    }
  }
  return results;
}

const READ_ONLY = new Set(["Read", "Grep", "Glob", "LS", "NotebookRead", "WebFetch", "WebSearch"]);
const HARMLESS = new Set([...READ_ONLY, "TodoWrite", "BashOutput", "Skill", "ExitPlanMode"]);

/**
 * Checks a reported repeat against the raw lines, without the code under test: the first
 * call succeeded, both have the same tool and input, and every call of the scope between
 * them is a read, a poll, or (for a repeated read) a write to some other path.
 */
function checkRepeatByHand(text: string, repeat: RepeatFinding, scopeCallIds: Set<string>): void {
  const calls = naiveCalls(text).filter((c) => scopeCallIds.has(c.id));
  const results = naiveResults(text);
  const first = calls.find((c) => c.id === repeat.first.toolUseId)!;
  const again = calls.find((c) => c.id === repeat.repeat.toolUseId)!;
  expect(first.name).toBe(again.name);
  expect(first.input).toEqual(again.input);
  expect(results.get(first.id)?.isError).toBe(false);
  const path = (input: unknown) => (input as { file_path?: string }).file_path;
  for (const between of calls.filter((c) => c.line > first.line && c.line < again.line)) {
    const harmless =
      HARMLESS.has(between.name) ||
      (READ_ONLY.has(first.name) && ["Edit", "Write", "MultiEdit"].includes(between.name) && path(between.input) !== path(first.input));
    expect(harmless, `${between.name} at line ${between.line} stands between`).toBe(true);
  }
}

async function replayJson(...paths: string[]): Promise<ReplayReport> {
  const run = await cli(["replay", "--json", ...paths]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as ReplayReport;
}

describe.each(fixtures)("replay of fixture %s", (name) => {
  const path = join(TRANSCRIPTS, name);
  const text = readFileSync(path, "utf8");
  const expected = EXPECTED[name]!;

  it("reports as many calls as the file has tool_use blocks, split by scope", async () => {
    const report = await replayJson(path);
    const file = report.files[0]!;
    const naive = naiveCalls(text);
    const grep = text.match(/"type":\s*"tool_use"/g) ?? [];
    expect(report.files).toHaveLength(1); // no subagent folder beside these files
    expect(file.calls).toBe(naive.length);
    expect(file.calls).toBe(grep.length);
    expect(file.calls).toBe(expected.calls);
    expect(report.totals.calls).toBe(naive.length);
    expect(Object.fromEntries(file.scopes.map((s) => [s.id, s.calls]))).toEqual(expected.scopes);
    expect(file.scopes.filter((s) => s.scope === "main").reduce((n, s) => n + s.calls, 0)).toBe(naive.filter((c) => !c.sidechain).length);
    expect(file.scopes.filter((s) => s.scope === "agent").reduce((n, s) => n + s.calls, 0)).toBe(naive.filter((c) => c.sidechain).length);
    // Each subagent scope is linked to the Task whose prompt it received.
    for (const scope of file.scopes.filter((s) => s.scope === "agent")) expect(scope.spawnedBy?.tool).toBe("Task");
  });

  it("reports exactly the repeats named above", async () => {
    const report = await replayJson(path);
    const found = report.files[0]!.scopes.flatMap((scope) =>
      scope.repeats.map((r) => ({ scope: scope.id, tool: r.tool, input: r.input, firstLine: r.first.line, repeatLine: r.repeat.line })),
    );
    expect(found).toEqual(expected.repeats);
    expect(report.totals.repeats).toBe(expected.repeats.length);
  });

  it("with --gated, refuses every non-neutral call for want of a report (these sessions wrote none)", async () => {
    const run = await cli(["replay", "--gated", "--json", path]);
    const report = JSON.parse(run.stdout) as ReplayReport;
    const naive = naiveCalls(text);
    const neutral = naive.filter((c) => ["TodoWrite", "ExitPlanMode", "Skill"].includes(c.name)).length;
    expect(report.totals.refused).toBe(naive.length - neutral);
    expect(report.totals.passed).toBe(0);
    for (const scope of report.files[0]!.scopes)
      expect(Object.keys(scope.gate!.byRule)).toEqual(scope.gate!.refused > 0 ? ["no_report"] : []);
  });
});

describe("a real session with the two failed Edits cut out", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const name = "viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";
  const lines = readFileSync(join(TRANSCRIPTS, name), "utf8").split("\n");
  // Lines 77-81: Edit page.tsx, its error, a text line, Edit page.tsx again, its error.
  const cut = [...lines.slice(0, 76), ...lines.slice(81)].join("\n");
  const path = dir.file("cut.jsonl", cut);

  it("holds one exact repeat: the re-read of page.tsx, with only a read and a TodoWrite between", async () => {
    const report = await replayJson(path);
    const scope = report.files[0]!.scopes.find((s) => s.id === "sidechain:2")!;
    const pageRead = { file_path: "/path/to/Demo/todo-app/src/app/page.tsx" };
    expect(report.files[0]!.scopes.flatMap((s) => s.repeats.map((r) => [s.id, r.tool, r.input, r.first.line, r.repeat.line]))).toEqual([
      ["sidechain:2", "Read", pageRead, 70, 78],
    ]);
    const repeat = scope.repeats[0]!;
    // Calls 13 and 16 of the subagent; steps 9 and 11 (its five TodoWrites are neutral, not steps).
    expect(repeat.first).toMatchObject({ index: 13, task: 1, step: 9 });
    expect(repeat.repeat).toMatchObject({ index: 16, task: 1, step: 11 });
    const results = naiveResults(cut);
    const bytes = Buffer.byteLength(results.get(repeat.repeat.toolUseId)!.text, "utf8");
    expect(repeat.resultBytes).toBe(bytes);
    expect(repeat.tokens).toBe(Math.ceil(bytes / 4));
    expect(report.totals.repeatTokens).toBe(repeat.tokens);
    const ids = new Set(
      naiveCalls(cut)
        .filter((c) => c.line >= scope.firstLine && c.line <= scope.lastLine && c.sidechain)
        .map((c) => c.id),
    );
    checkRepeatByHand(cut, repeat, ids);
  });
});

it("has an expectation for every fixture", () => {
  expect(fixtures).toEqual(Object.keys(EXPECTED).sort());
});
