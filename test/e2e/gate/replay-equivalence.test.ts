/**
 * Replay equals the gate (issue 12): sessions run in the real client with the
 * plugin, then `utility replay` over their transcripts, compared call by call
 * with the hooks' own log: the same decisions, rules, tasks, steps and
 * repeats. Both decide through one function against one reducer's state
 * (src/engine/session/), so a rule cannot differ between them.
 *
 * Parallel siblings take their steps in whatever order their hooks get the
 * lock, so steps are compared per scope as the sorted list of (task, step).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../../src/replay/types.js";
import { PLUGIN_ROOT } from "../../support/paths.js";
import type { RunClaudeResult } from "../support/claude.js";
import { routeByPrompt, text, toolUse } from "../support/scripted-model.js";
import { activate, gateRun, id, logOf, markerDir, ok, type Rec } from "./support.js";

interface Call {
  decision: string;
  rule?: string;
  task: number;
  /** The original's tool_use_id: its step depends on the order parallel siblings took the lock. */
  repeatOf?: string;
}

/** The hooks' PreToolUse records by scope ("main" or "agent:<id>") and tool_use_id. */
function hooksView(run: RunClaudeResult): Map<string, Map<string, Call & { step: number }>> {
  const view = new Map<string, Map<string, Call & { step: number }>>();
  for (const r of logOf(run).filter((rec: Rec) => rec.event === "PreToolUse" && rec.toolUseId)) {
    const key = r.agentId ? `agent:${r.agentId}` : "main";
    if (!view.has(key)) view.set(key, new Map());
    view.get(key)!.set(r.toolUseId!, {
      decision: r.decision,
      ...(r.rule ? { rule: r.rule } : {}),
      task: r.task,
      step: r.step,
      ...(r.repeat ? { repeatOf: r.repeat.toolUseId } : {}),
    });
  }
  return view;
}

/** Replay's decided calls, by the same keys (a subagent's own file; copies inside the session file left out). */
function replayView(run: RunClaudeResult, gated: boolean): Map<string, Map<string, Call & { step: number }>> {
  const cli = spawnSync(
    process.execPath,
    [join(PLUGIN_ROOT, "dist", "cli.js"), "replay", "--json", ...(gated ? ["--gated"] : []), run.transcriptPath!],
    { encoding: "utf8" },
  );
  expect(cli.stderr).toBe("");
  const parsed = JSON.parse(cli.stdout) as ReplayReport;
  const view = new Map<string, Map<string, Call & { step: number }>>();
  for (const file of parsed.files) {
    for (const scope of file.scopes) {
      if (scope.source === "inline") continue;
      const key = scope.scope === "main" ? "main" : `agent:${scope.agentId}`;
      const calls = new Map<string, Call & { step: number }>();
      for (const d of scope.decided)
        calls.set(d.toolUseId, {
          decision: d.decision,
          ...(d.rule ? { rule: d.rule } : {}),
          task: d.task,
          step: d.step,
          ...(d.repeatOf !== undefined ? { repeatOf: d.repeatOf } : {}),
        });
      view.set(key, calls);
    }
  }
  return view;
}

function expectSame(run: RunClaudeResult, gated: boolean): void {
  const hooks = hooksView(run);
  const replay = replayView(run, gated);
  expect([...replay.keys()].sort()).toEqual([...hooks.keys()].sort());
  for (const [scope, calls] of hooks) {
    const replayed = replay.get(scope)!;
    const strip = (m: Map<string, Call & { step: number }>) => new Map([...m].map(([k, { step: _s, ...rest }]) => [k, rest]));
    expect({ scope, calls: strip(replayed) }).toEqual({ scope, calls: strip(calls) });
    const steps = (m: Map<string, Call & { step: number }>) => [...m.values()].map((c) => `${c.task}:${c.step}`).sort();
    expect({ scope, steps: steps(replayed) }).toEqual({ scope, steps: steps(calls) });
  }
}

describe("replay equals the gate, call by call", () => {
  const ids = {
    a: id("eq_a"),
    b: id("eq_b"),
    noReport: id("eq_norep"),
    repeat: id("eq_rep"),
    agent: id("eq_agent"),
    bg: id("eq_bg"),
    afterBg: id("eq_after_bg"),
    subA: id("eq_sub_a"),
    subRepeat: id("eq_sub_rep"),
  };
  let gated: RunClaudeResult;
  let ungated: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    const a = join(cwd, "a.txt");
    const b = join(cwd, "b.txt");
    writeFileSync(a, "A\n");
    writeFileSync(b, "B\n");
    const R0 = (why: string) => ok("retrieve", why);
    const subagent = (reported: boolean) =>
      routeByPrompt([
        [
          "SUBTASK",
          [
            [...(reported ? [text(R0("Read a."))] : []), toolUse("Read", { file_path: a }, ids.subA)],
            [...(reported ? [text(R0("Read a again."))] : []), toolUse("Read", { file_path: a }, ids.subRepeat)],
            [text("SUB-DONE")],
          ],
        ],
      ]);
    const main = (reported: boolean, agentType: string) => [
      ...(reported ? [[activate()]] : []),
      [...(reported ? [text(R0("Read both."))] : []), toolUse("Read", { file_path: a }, ids.a), toolUse("Read", { file_path: b }, ids.b)],
      [toolUse("Bash", { command: "true", description: "no report" }, ids.noReport)],
      [...(reported ? [text(R0("Read a again."))] : []), toolUse("Read", { file_path: a }, ids.repeat)],
      [
        ...(reported ? [text(ok("delegate", "Hand the check over."))] : []),
        toolUse(
          "Agent",
          { subagent_type: agentType, description: "Check", prompt: "SUBTASK: check a", run_in_background: false },
          ids.agent,
        ),
      ],
      [
        ...(reported ? [text(ok("tool_call", "Start a job."))] : []),
        toolUse("Bash", { command: "true", description: "job", run_in_background: true }, ids.bg),
      ],
      [...(reported ? [text(R0("Read b again."))] : []), toolUse("Read", { file_path: b }, ids.afterBg)],
      [text("Done.")],
    ];
    [gated, ungated] = await Promise.all([
      gateRun({
        prompt: "check the files",
        cwd,
        fixtures: true,
        script: main(true, "ufix:gated-helper"),
        subagentScript: subagent(true),
        timeoutMs: 120_000,
      }),
      gateRun({
        prompt: "check the files",
        cwd: markerDir(),
        script: main(false, "general-purpose").map((t) => JSON.parse(JSON.stringify(t).split(cwd).join(cwd))),
        subagentScript: subagent(false),
        timeoutMs: 120_000,
      }),
    ]);
  }, 240_000);
  afterAll(() => {
    gated?.cleanup();
    ungated?.cleanup();
  });

  it("the gated session: the refusals it was built for happened (no report, an exact repeat, in the main scope and the subagent)", () => {
    const hooks = hooksView(gated);
    const main = hooks.get("main")!;
    expect(main.get(ids.noReport)).toMatchObject({ decision: "refused", rule: "no_report" });
    expect(main.get(ids.repeat)).toMatchObject({ decision: "refused", rule: "exact_repeat" });
    expect(main.get(ids.afterBg)).toMatchObject({ decision: "passed" }); // the background job may still be changing things: no repeat
    expect(main.get(ids.afterBg)!.repeatOf).toBeUndefined();
    const sub = [...hooks.entries()].find(([k]) => k.startsWith("agent:"))![1];
    expect(sub.get(ids.subRepeat)).toMatchObject({ decision: "refused", rule: "exact_repeat" });
  });

  it("replay --gated decides every call of the gated session as the hooks did", () => {
    expectSame(gated, true);
  });

  it("replay decides every call of the ungated session as the hooks did, repeats included", () => {
    const hooks = hooksView(ungated);
    // The Bash call ran this time: it stands between the two reads of a, so that is no repeat; the subagent's is.
    expect(hooks.get("main")!.get(ids.repeat)).toMatchObject({ decision: "observed" });
    expect(hooks.get("main")!.get(ids.repeat)!.repeatOf).toBeUndefined();
    const sub = [...hooks.entries()].find(([k]) => k.startsWith("agent:"))![1];
    expect(sub.get(ids.subRepeat)).toMatchObject({ decision: "observed", repeatOf: ids.subA });
    expectSame(ungated, false);
  });
});

describe("replay without --gated equals the gate in a subagent its definition gates", () => {
  const ids = { agent: id("def_agent"), read: id("def_read"), repeat: id("def_rep"), noReport: id("def_norep") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    const cwd = markerDir();
    const a = join(cwd, "a.txt");
    writeFileSync(a, "A\n");
    // A project agent that opts in: the hooks load it at SubagentStart; replay finds it from the folder the subagent worked in.
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "agents", "gated-helper.md"),
      "---\nname: gated-helper\ndescription: gated from its start by its definition\ntools: Bash, Read\nutility_gated: true\n---\n\nWrite an action report before every tool call.\n",
    );
    const R0 = (why: string) => ok("retrieve", why);
    run = await gateRun({
      prompt: "check the file",
      cwd,
      script: [
        [toolUse("Agent", { subagent_type: "gated-helper", description: "Check", prompt: "SUBTASK: check a" }, ids.agent)],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        [
          "SUBTASK",
          [
            [text(R0("Read a.")), toolUse("Read", { file_path: a }, ids.read)],
            [text(R0("Read a again.")), toolUse("Read", { file_path: a }, ids.repeat)],
            [toolUse("Bash", { command: "true", description: "no report" }, ids.noReport)],
            [text("SUB-DONE")],
          ],
        ],
      ]),
      timeoutMs: 120_000,
    });
  }, 180_000);
  afterAll(() => run?.cleanup());

  it("the hooks gated the subagent by its definition (an exact repeat and a call with no report refused), not the main conversation", () => {
    const hooks = hooksView(run);
    expect(hooks.get("main")!.get(ids.agent)).toMatchObject({ decision: "observed" });
    const sub = [...hooks.entries()].find(([k]) => k.startsWith("agent:"))![1];
    expect(sub.get(ids.read)).toMatchObject({ decision: "passed" });
    expect(sub.get(ids.repeat)).toMatchObject({ decision: "refused", rule: "exact_repeat" });
    expect(sub.get(ids.noReport)).toMatchObject({ decision: "refused", rule: "no_report" });
  });

  it("plain utility replay decides every call as the hooks did: the definition read from the subagent's .meta.json type", () => {
    expectSame(run, false);
  });
});
