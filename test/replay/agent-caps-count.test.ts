// Done when (issue 35): on the real session files in the tests, replay's
// suggestion for the caps per subagent and what they would have saved equal
// an independent count (./independent-agent-count.ts, which uses nothing of
// src/: each subagent's own messages, each message id once, and before each of
// its calls what it had spent). Also on a folder laid out like
// ~/.claude/projects, whose subagents have their own files (a Workflow's too).
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { budgetEffect, type BudgetEffect } from "../../src/history/budgets.js";
import type { HistoryReport } from "../../src/history/report.js";
import { tasksOfSession, type SubagentRow } from "../../src/history/tasks.js";
import { nodeSha256Hex } from "../../src/hash/node-sha256.js";
import { replaySession } from "../../src/replay/core.js";
import { sessionInputs, skillSource } from "../../src/replay/files.js";
import { sessionsIn } from "../../src/replay/projects.js";
import { writeProjectsFolder } from "../../scripts/bench/projects-folder.mjs";
import { cli } from "../support/cli-io.js";
import { TRANSCRIPTS } from "../support/paths.js";
import { capEffect, countSubagents, rank, twoDigitsUp, type CountedSubagent } from "./independent-agent-count.js";
import { sessionFilesUnder } from "./independent-count.js";
import { tempDir } from "./support.js";

async function history(args: string[], home: string): Promise<HistoryReport> {
  const run = await cli(["replay", ...args, "--json"], { env: { HOME: home }, cwd: home });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as HistoryReport;
}

/** Every subagent of a project folder as replay sees it (the session machine's figures), by session and scope id. */
function replayedSubagents(folder: string): Map<string, SubagentRow> {
  const out = new Map<string, SubagentRow>();
  for (const s of sessionsIn(folder)) {
    const files = [{ path: s.path, subagent: false }, ...s.subagents.map((path) => ({ path, subagent: true }))];
    const replay = replaySession(sessionInputs(files, { bytes: 0, tick: () => {} }), { skillSource, sha256: nodeSha256Hex });
    for (const row of tasksOfSession(replay, { session: s.sessionId, path: s.path }, DEFAULT_PRICES))
      for (const sub of row.subagents) out.set(`${s.sessionId}#${sub.id}`, sub);
  }
  return out;
}

const percentiles = (values: number[]) => ({
  n: values.length,
  p50: rank(values, 50),
  p90: rank(values, 90),
  p99: rank(values, 99),
  max: values.length === 0 ? 0 : Math.max(...values),
});

const effectOf = (e: BudgetEffect | undefined) => ({ stopped: e?.stopped, savedTokens: e?.savedTokens });

/** The suggestion, its effect and every what-if row of both caps, against the independent count. */
function compareReport(report: HistoryReport, counted: CountedSubagent[]): void {
  const tokens = counted.map((s) => s.tokens);
  const calls = counted.map((s) => s.calls);
  expect(report.subagentPercentiles.tokens).toEqual(percentiles(tokens));
  expect(report.subagentPercentiles.calls).toEqual(percentiles(calls));
  const tokenCap = Math.max(1, twoDigitsUp(rank(tokens, 99) * 1.5));
  const callCap = Math.max(rank(calls, 99) + 1, Math.ceil(rank(calls, 99) * 1.5));
  const s = report.suggestedBudgets.budgets;
  expect(s.agent_token_budget.value).toBe(tokenCap);
  expect(s.agent_max_tool_calls.value).toBe(callCap);
  expect(effectOf(s.agent_token_budget.effect)).toEqual(capEffect(counted, "tokens", tokenCap));
  expect(effectOf(s.agent_max_tool_calls.effect)).toEqual(capEffect(counted, "calls", callCap));
  expect(report.suggestedBudgets.command).toContain(`"agent_token_budget":"${tokenCap}"`);
  expect(report.suggestedBudgets.command).toContain(`"agent_max_tool_calls":"${callCap}"`);
  for (const [setting, measure] of [
    ["agent_token_budget", "tokens"],
    ["agent_max_tool_calls", "calls"],
  ] as const) {
    expect(report.whatIf[setting].length).toBeGreaterThan(0);
    for (const effect of report.whatIf[setting]) {
      expect({ value: effect.value, ...effectOf(effect), subagents: effect.subagents }).toEqual({
        value: effect.value,
        ...capEffect(counted, measure, effect.value),
        subagents: counted.length,
      });
    }
  }
}

/** Each subagent's own spend and what it had spent before each of its calls, and what caps below the largest would save. */
function compareTrails(folder: string, counted: CountedSubagent[]): { stopped: number; saved: number } {
  const replayed = replayedSubagents(folder);
  expect([...replayed.keys()].sort()).toEqual(counted.map((c) => `${c.session}#${c.key}`).sort());
  for (const c of counted) {
    const sub = replayed.get(`${c.session}#${c.key}`)!;
    expect({
      key: c.key,
      tokens: sub.tokens,
      calls: sub.calls,
      before: sub.trail.map((t) => ({ tokens: t.tokens, calls: t.calls })),
    }).toEqual({
      key: c.key,
      tokens: c.tokens,
      calls: c.calls,
      before: c.before,
    });
  }
  // Caps that bite: half of each subagent's own spend, and the medians.
  const rows = [{ ...rowShape, subagents: [...replayed.values()] }];
  let stopped = 0;
  let saved = 0;
  const tokenCaps = [
    ...counted.map((c) => Math.ceil(c.tokens / 2)),
    rank(
      counted.map((c) => c.tokens),
      50,
    ),
  ];
  const callCaps = [
    ...counted.map((c) => Math.ceil(c.calls / 2)),
    rank(
      counted.map((c) => c.calls),
      50,
    ),
  ].filter((v) => v > 0);
  for (const cap of tokenCaps) {
    const effect = budgetEffect(rows, "agent_token_budget", cap);
    expect({ cap, ...effectOf(effect) }).toEqual({ cap, ...capEffect(counted, "tokens", cap) });
    stopped += effect.stopped;
    saved += effect.savedTokens;
  }
  for (const cap of callCaps)
    expect({ cap, ...effectOf(budgetEffect(rows, "agent_max_tool_calls", cap)) }).toEqual({ cap, ...capEffect(counted, "calls", cap) });
  return { stopped, saved };
}

/** A task row holding every subagent (a cap per subagent reads only them). */
const rowShape = {
  place: { session: "all", path: "" },
  task: 1,
  tokens: 0,
  tokenCounts: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
  byModel: {},
  costUsd: 0,
  calls: 0,
  agents: 0,
  repeats: 0,
  repeatTokens: 0,
  identicalOutcomes: 0,
  trail: [],
};

describe("caps per subagent on the real transcripts equal an independent count", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const project = join(dir.path, "project");
  beforeAll(() => {
    mkdirSync(project, { recursive: true });
    for (const name of readdirSync(TRANSCRIPTS).filter((n) => n.endsWith(".jsonl")))
      copyFileSync(join(TRANSCRIPTS, name), join(project, name));
  });

  it("each subagent's own spend before each of its calls, and what caps below its spend would have saved", () => {
    const counted = sessionFilesUnder(project).flatMap(countSubagents);
    // 2.1 agent_progress copies (spotter__subagent) and 1.0 inline sidechains (two viewer__ sessions).
    expect(counted.length).toBeGreaterThanOrEqual(8);
    expect(new Set(counted.map((c) => c.session)).size).toBeGreaterThanOrEqual(3);
    const bit = compareTrails(project, counted);
    expect(bit.stopped).toBeGreaterThan(counted.length / 2);
    expect(bit.saved).toBeGreaterThan(1e6);
  });

  it("replay's suggested caps, what they and the percentiles' caps would have saved, and the command", async () => {
    compareReport(await history([project], dir.path), sessionFilesUnder(project).flatMap(countSubagents));
  });
});

describe("caps per subagent on a projects folder (subagent files, a Workflow's agents) equal an independent count", () => {
  const home = tempDir();
  const projects = join(home.path, ".claude", "projects");
  beforeAll(() => void writeProjectsFolder(projects, { bytes: 8e6, seed: 5 }), 60_000);
  afterAll(() => home.remove());

  it("per subagent, and the suggestion of --all", async () => {
    const counted = sessionFilesUnder(projects).flatMap(countSubagents);
    expect(counted.length).toBeGreaterThanOrEqual(20);
    let stopped = 0;
    for (const folder of readdirSync(projects)) {
      const here = sessionFilesUnder(join(projects, folder)).flatMap(countSubagents);
      if (here.length > 0) stopped += compareTrails(join(projects, folder), here).stopped;
    }
    expect(stopped).toBeGreaterThan(0);
    compareReport(await history(["--all"], home.path), counted);
  }, 60_000);
});
