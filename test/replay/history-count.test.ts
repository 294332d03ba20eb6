// Done when (issue 23): on the real transcripts and on a folder laid out like
// ~/.claude/projects (sessions with subagents, a Workflow's agents,
// compactions, background jobs), `utility replay`'s figures per task match an
// independent count of the same files (./independent-count.ts, which uses
// nothing of src/): tokens, tool calls that ran, subagents, exact repeats.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryReport } from "../../src/history/report.js";
import { writeProjectsFolder } from "../../scripts/bench/projects-folder.mjs";
import { cli } from "../support/cli-io.js";
import { TRANSCRIPTS } from "../support/paths.js";
import { countSession, sessionFilesUnder, type CountedTask } from "./independent-count.js";
import { tempDir } from "./support.js";

const keyOf = (t: { session: string; task: number }) => `${t.session}#${t.task}`;

function compare(report: HistoryReport, counted: CountedTask[]): void {
  const replayed = new Map(report.tasks.map((t) => [keyOf(t), t]));
  expect([...replayed.keys()].sort()).toEqual(counted.map(keyOf).sort());
  for (const c of counted) {
    const r = replayed.get(keyOf(c))!;
    expect({ task: keyOf(c), tokens: r.tokens, calls: r.calls, agents: r.agents, repeats: r.repeats }).toEqual({
      task: keyOf(c),
      tokens: c.tokens,
      calls: c.calls,
      agents: c.agents,
      repeats: c.repeats,
    });
  }
  const sum = (i: 0 | 1 | 2 | 3) => counted.reduce((n, c) => n + c.counts[i], 0);
  expect(report.totals.spend.tokens).toEqual({ input: sum(0), output: sum(1), cacheCreation: sum(2), cacheRead: sum(3) });
  expect(report.totals.calls).toBe(counted.reduce((n, c) => n + c.calls, 0));
  expect(report.totals.repeats).toBe(counted.reduce((n, c) => n + c.repeats, 0));
}

async function history(args: string[], home: string): Promise<HistoryReport> {
  const run = await cli(["replay", ...args, "--json"], { env: { HOME: home }, cwd: home });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as HistoryReport;
}

describe("replay's history of the real transcripts equals an independent count", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const project = join(dir.path, "project");
  beforeAll(() => {
    mkdirSync(project, { recursive: true });
    for (const name of readdirSync(TRANSCRIPTS).filter((n) => n.endsWith(".jsonl")))
      copyFileSync(join(TRANSCRIPTS, name), join(project, name));
  });

  it("per task: tokens, calls that ran, subagents, exact repeats; and the totals", async () => {
    const report = await history([project], dir.path);
    const counted = sessionFilesUnder(project).flatMap(countSession);
    expect(counted.length).toBeGreaterThanOrEqual(8);
    expect(counted.some((c) => c.agents >= 3)).toBe(true);
    compare(report, counted);
  });
});

describe("replay's history of a projects folder equals an independent count", () => {
  const home = tempDir();
  const projects = join(home.path, ".claude", "projects");
  let written: ReturnType<typeof writeProjectsFolder>;
  beforeAll(() => {
    written = writeProjectsFolder(projects, { bytes: 8e6, seed: 5 });
  }, 60_000);
  afterAll(() => home.remove());

  it("holds what it is meant to: subagents (a Workflow's too), background jobs, compactions, repeats", () => {
    const files = sessionFilesUnder(projects);
    const all = files.map((f) => readFileSync(f, "utf8")).join("");
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(written.files).toBeGreaterThan(files.length);
    for (const shape of [
      '"subtype":"compact_boundary"',
      "Command running in background with ID: ",
      "Async agent launched successfully.",
      "<task-notification>",
      '"name":"Workflow"',
      '"run_in_background":false',
      '"toolDenialKind":"user-rejected"',
    ])
      expect(all.includes(shape), shape).toBe(true);
    expect(
      sessionFilesUnder(projects).some((f) =>
        readdirSync(join(f.slice(0, -".jsonl".length), "subagents"), { recursive: true }).some((n) => String(n).startsWith("workflows/")),
      ),
    ).toBe(true);
    expect(files.flatMap(countSession).reduce((n, c) => n + c.repeats, 0)).toBeGreaterThan(5);
  });

  it("--all: per task and in total", async () => {
    const report = await history(["--all"], home.path);
    expect(report.read.what).toBe("all");
    expect(report.read.sessions).toBe(sessionFilesUnder(projects).length);
    compare(report, sessionFilesUnder(projects).flatMap(countSession));
  }, 60_000);

  it("with no path, the project of the folder it runs in; --since leaves out the tasks before", async () => {
    const folder = readdirSync(projects).find((n) => n === "-home-dev-work-api-server")!;
    const run = await cli(["replay", "--json"], { env: { HOME: home.path }, cwd: "/home/dev/work/api-server" });
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as HistoryReport;
    expect(report.read).toMatchObject({ what: "project", projects: [folder] });
    const counted = sessionFilesUnder(join(projects, folder)).flatMap(countSession);
    compare(report, counted);
    const starts = report.tasks.map((t) => t.startedAt!).sort();
    const middle = starts[Math.floor(starts.length / 2)]!;
    const since = await cli(["replay", "--json", "--since", middle], { env: { HOME: home.path }, cwd: "/home/dev/work/api-server" });
    const later = JSON.parse(since.stdout) as HistoryReport;
    expect(later.tasks.length).toBe(starts.filter((s) => s >= middle).length);
    expect(later.tasks.every((t) => t.startedAt! >= middle)).toBe(true);
  }, 60_000);
});
