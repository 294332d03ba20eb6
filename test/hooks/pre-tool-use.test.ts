/**
 * The PreToolUse handler with in-memory fakes: every row of SPEC §6 as the
 * hook sees it (what it prints, what it logs, what it counts), gating by
 * skill, /utility on, agent definition and dispatch, and the failure rules of
 * SPEC §10.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inputDigest } from "../../src/engine/redundancy.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { LogRecordSchema } from "../../src/log/record.js";
import { summarize } from "../../src/summary/summarize.js";
import { newSession, type SessionDraft } from "../../src/engine/session/state.js";
import { StateUnreadableError } from "../../src/state/state-file.js";
import type { StateStore } from "../../src/state/store.js";
import { assistant, call, jsonl, meta, prompt, result, tempDir, type TempDir } from "../transcript/helpers.js";
import { denyReason, fakeContext, GOOD, preInput, report, SESSION, seedMainGate, source, type FakeContext } from "./fake-context.js";

const SKILL = "/skills/gated/SKILL.md";
const LOW_HIGH_GAIN = "Gain=0.7 StepCost=1 Uncertainty=1 Redundancy=0";

/** Runs one gated call (main scope, the skill above) with `text` before it; returns the result, its record and the state. */
async function gatedCall(
  reportText: string | undefined,
  tool = "Bash",
  setup: (s: SessionDraft) => void = () => {},
  ctx: FakeContext = fakeContext(),
) {
  seedMainGate(ctx, source(SKILL, { config: { maxSteps: 2 } }), setup);
  const input = preInput(tool, tool === "Read" ? { file_path: "/a" } : { command: "true" });
  if (reportText !== undefined) ctx.texts.set(input.tool_use_id, reportText);
  const result = await preToolUse(input, ctx);
  return { result, record: ctx.records.at(-1)!, state: ctx.state()!, input, ctx };
}

interface Row {
  row: string;
  text: string | undefined;
  tool?: string;
  setup?: (s: SessionDraft) => void;
  rule: string;
  says: string;
}

const ROWS: Row[] = [
  {
    row: "no report",
    text: undefined,
    rule: "no_report",
    says: "Breakdown: Gain=<0..1> StepCost=<0..1> Uncertainty=<0..1> Redundancy=<0..1>",
  },
  { row: "text but no report", text: "Let me run it.", rule: "no_report", says: "No action report before this Bash call." },
  { row: "malformed", text: report("verify", "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6"), rule: "malformed", says: "Redundancy" },
  {
    row: "signal out of range",
    text: report("verify", "0.28", "Gain=0.7 StepCost=1.5 Uncertainty=0.6 Redundancy=0"),
    rule: "malformed",
    says: "StepCost is 1.5",
  },
  {
    row: "unknown action",
    text: report("search", "0.28", GOOD),
    rule: "unknown_action",
    says: "In self scope the actions are respond, retrieve, tool_call, verify, delegate, stop.",
  },
  { row: "Utility disagrees", text: report("verify", "0.30", GOOD), rule: "utility_mismatch", says: "Write Utility: 0.28." },
  {
    row: "long form not argmax",
    text: `Candidates:\n- respond: Gain=0.5 StepCost=0 Uncertainty=0.2 Redundancy=0\n- verify: ${GOOD}\n${report("verify", "0.28", GOOD)}`,
    rule: "not_argmax",
    says: "respond has U = 0.40 against 0.28",
  },
  {
    row: "step ≥ max_steps",
    text: report("verify", "0.28", GOOD),
    setup: (s) => void (s.main.step = 2),
    rule: "budget_spent",
    says: "2 of 2 steps taken",
  },
  { row: "respond", text: report("respond", "0.28", GOOD), rule: "loop_ended", says: "selected respond" },
  {
    row: "stop",
    text: report("stop", "-0.3", "Gain=0 StepCost=0 Uncertainty=0.6 Redundancy=0"),
    rule: "loop_ended",
    says: "selected stop",
  },
  {
    row: "U < floor, no high Gain",
    text: report("verify", "-0.80", "Gain=0.2 StepCost=0.5 Uncertainty=1 Redundancy=0"),
    rule: "below_floor",
    says: "U = -0.80 is below the floor -0.5",
  },
  {
    row: "U < floor, override claimed in the short form",
    text: report("verify", "-0.80", LOW_HIGH_GAIN, "high-gain override, Gain 0.7"),
    rule: "override_undocumented",
    says: "judged on the long form only",
  },
  {
    row: "tool not permitted",
    text: report("retrieve", "0.28", GOOD),
    rule: "tool_not_permitted",
    says: "Action retrieve does not permit Bash",
  },
  {
    row: "exact repeat, Redundancy < 1",
    text: report("retrieve", "0.28", GOOD),
    tool: "Read",
    setup: (s) => {
      s.main.step = 1;
      s.main.history.push({ tool: "Read", digest: inputDigest({ file_path: "/a" }), effect: { kind: "read", paths: ["/a"] }, at: 1 });
    },
    rule: "exact_repeat",
    says: "so Redundancy is 1, not 0",
  },
];

describe("PreToolUse under the gate: each row of SPEC §6", () => {
  it.each(ROWS)("$row → refused ($rule)", async (row) => {
    const { result, record, state } = await gatedCall(row.text, row.tool ?? "Bash", row.setup);
    const reason = denyReason(result);
    expect(reason).toBeDefined();
    expect(reason).toBe(`utility gate: ${record.reason}`);
    expect(reason).toContain(row.says);
    expect(record).toMatchObject({
      event: "PreToolUse",
      decision: "refused",
      rule: row.rule,
      gated: true,
      gatedBy: SKILL,
      maxSteps: 2,
      session: SESSION,
    });
    const stepBefore = row.setup ? (row.rule === "budget_spent" ? 2 : 1) : 0;
    expect(state.main.step).toBe(stepBefore);
    expect(state.main.refusals).toBe(1);
    expect(state.main.pending).toEqual({});
    expect(JSON.stringify(result)).not.toContain('"allow"');
  });

  it("anything else → no output at all (never allow), one step, the report logged", async () => {
    const { result, record, state, input } = await gatedCall(report("verify", "0.28", GOOD, "run it"));
    expect(result).toEqual({});
    expect(record).toMatchObject({
      decision: "passed",
      step: 1,
      tool: "Bash",
      toolUseId: input.tool_use_id,
      report: { action: "verify", utility: 0.28, gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0, rationale: "run it" },
      selection: { strategy: "reported", candidates: 1, chosen: "verify" },
    });
    expect(record.rule).toBeUndefined();
    expect(state.main).toMatchObject({ step: 1, refusals: 0, lastAction: "verify" });
    expect(state.main.pending[input.tool_use_id]).toMatchObject({ tool: "Bash", at: 1 });
  });

  it("the documented high-gain override passes and is logged (long form with a stop row, under a floor above −λ2)", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source(SKILL, { config: { maxSteps: 2, floor: 0 } }));
    const input = preInput("Bash");
    // verify U = 0.7 − 0.5 − 0.3 = −0.1 < floor 0; stop U = −0.45.
    const row = "Gain=0.7 StepCost=0.5 Uncertainty=0.6 Redundancy=0";
    const table = `Candidates:\n- verify: ${row}\n- stop: Gain=0 StepCost=0 Uncertainty=0.9 Redundancy=0\n`;
    ctx.texts.set(input.tool_use_id, table + report("verify", "-0.10", row, "high-gain override, Gain 0.7"));
    expect(await preToolUse(input, ctx)).toEqual({});
    expect(ctx.records.at(-1)!.report?.override).toEqual({ action: "verify", gain: 0.7 });
  });

  it("a passed call tells the model its steps, tier and each action's StepCost in one line, when the transcript names the model", async () => {
    const ctx = fakeContext();
    const plain = ctx.waitForText;
    ctx.waitForText = (ref, id) => {
      const found = plain(ref, id);
      return found.found ? { ...found, model: "claude-opus-4-5-20251101" } : found;
    };
    const { result, state } = await gatedCall(report("verify", "0.28", GOOD, "run it"), "Bash", () => {}, ctx);
    expect(state.main.step).toBe(1);
    // step 1 of 2 on opus: 0.71·0.5 + 0.29·1.0 = 0.645
    expect(result).toEqual({
      output: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          additionalContext:
            "utility: 1 of 2 steps taken · opus · StepCost retrieve/verify/tool_call/delegate 0.645 · respond 0.29 · stop 0",
        },
      },
    });
    const refused = await gatedCall(report("verify", "0.30", GOOD), "Bash", () => {}, ctx);
    expect(refused.result.output?.hookSpecificOutput).not.toHaveProperty("additionalContext");
  });

  it("a long form whose Action is the argmax passes, with its candidate count", async () => {
    const text = `Candidates:\n- respond: Gain=0.2 StepCost=0 Uncertainty=0.8 Redundancy=0\n- verify: ${GOOD}\n${report("verify", "0.28", GOOD)}`;
    const { result, record } = await gatedCall(text);
    expect(result).toEqual({});
    expect(record.selection).toEqual({ strategy: "reported", candidates: 2, chosen: "verify" });
  });

  it("an invalid opt-in refuses every call with the problem", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source(SKILL, { problem: 'SKILL.md: utility_gated: found "true" (a string); expected a boolean.' }));
    const input = preInput("Bash");
    ctx.texts.set(input.tool_use_id, report("verify", "0.28", GOOD));
    const reason = denyReason(await preToolUse(input, ctx));
    expect(reason).toContain("The skill that gates this scope has an invalid opt-in");
    expect(reason).toContain('utility_gated: found "true"');
    expect(ctx.records[0]).toMatchObject({ rule: "optin_invalid" });
  });

  it("utility_tools widens what an action permits", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source(SKILL, { extraTools: { retrieve: ["mcp__docs__search"] } }));
    const ok = preInput("mcp__docs__search", { q: "x" });
    ctx.texts.set(ok.tool_use_id, report("retrieve", "0.28", GOOD));
    expect(await preToolUse(ok, ctx)).toEqual({});
    const other = preInput("mcp__other__tool", { q: "x" });
    ctx.texts.set(other.tool_use_id, report("retrieve", "0.28", GOOD));
    expect(denyReason(await preToolUse(other, ctx))).toContain(
      "retrieve permits read-only tools (Read, Grep, Glob, LS, NotebookRead, WebFetch, WebSearch, ListMcpResourcesTool, ReadMcpResourceTool, BashOutput, TaskOutput), and mcp__docs__search",
    );
  });

  it("/utility on gates with the defaults", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, true);
    const input = preInput("Bash");
    expect(denyReason(await preToolUse(input, ctx))).toContain("No action report");
    expect(ctx.records[0]).toMatchObject({ gatedBy: "/utility on", maxSteps: 10 });
  });

  it("neutral tools are never refused, never counted, never logged; a Skill call (judged by its skill) waits for its line, and so does the call after it, for the skill's lines", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source(SKILL));
    for (const tool of ["Skill", "TodoWrite", "ToolSearch", "ExitPlanMode", "TaskCreate"])
      expect(await preToolUse(preInput(tool, {}), ctx)).toEqual({});
    expect(ctx.records).toEqual([]);
    expect(ctx.state()!.main).toMatchObject({ step: 0, refusals: 0 });
    // A planning call needs no report: under the gate it waits only while a skill's lines may be unread (its steps count).
    expect(ctx.waits).toHaveLength(2);
  });

  it("one report governs parallel calls: each checked, each passed call one step", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source(SKILL));
    const calls = [preInput("Read", { file_path: "/a" }), preInput("Grep", { pattern: "x" }), preInput("Bash", { command: "ls" })];
    for (const c of calls) ctx.texts.set(c.tool_use_id, report("retrieve", "0.28", GOOD));
    // One process per call in Claude Code; here one after the other (test/hooks/parallel.test.ts runs them at once).
    const results = [];
    for (const c of calls) results.push(await preToolUse(c, ctx));
    expect(results.map((r) => denyReason(r) === undefined)).toEqual([true, true, false]);
    expect(ctx.records.map((r) => [r.tool, r.decision, r.step])).toEqual([
      ["Read", "passed", 1],
      ["Grep", "passed", 2],
      ["Bash", "refused", 2],
    ]);
  });
});

describe("PreToolUse outside the gate", () => {
  it("never refuses, never waits for the transcript, counts and logs every step", async () => {
    const ctx = fakeContext();
    const results = [];
    for (const [i, text] of [undefined, "nonsense", report("search", "9", "x")].entries()) {
      const input = preInput("Bash", { command: `echo ${i}` });
      if (text) ctx.texts.set(input.tool_use_id, text);
      results.push(await preToolUse(input, ctx));
    }
    expect(results).toEqual([{}, {}, {}]);
    expect(ctx.waits).toHaveLength(1); // only the first call of a session looks for an activation it may not know of yet
    expect(ctx.records.map((r) => [r.decision, r.step, r.gated, r.scope])).toEqual([
      ["observed", 1, false, "self"],
      ["observed", 2, false, "self"],
      ["observed", 3, false, "self"],
    ]);
  });

  it("waits for the transcript only for a call that could repeat one whose result is not known yet", async () => {
    const ctx = fakeContext();
    await preToolUse(preInput("Read", { file_path: "/a" }), ctx);
    await preToolUse(preInput("Read", { file_path: "/b" }), ctx);
    expect(ctx.waits).toHaveLength(1); // the session's first call only
    await preToolUse(preInput("Read", { file_path: "/a" }), ctx);
    expect(ctx.waits).toHaveLength(2); // /a is pending: its result may be in a line not flushed yet
  });

  it("hints at an exact repeat once the call's result line is read, not after a Bash call in between", async () => {
    const dir = tempDir();
    try {
      const transcript = dir.file("t.jsonl", jsonl([prompt("go"), assistant("m1", [call("r1", "Read", { file_path: "/a" })])]));
      const ctx = fakeContext();
      await preToolUse(preInput("Read", { file_path: "/a" }, { id: "r1", transcript }), ctx);
      appendFileSync(transcript, jsonl([result("r1"), assistant("m2", [call("r2", "Read", { file_path: "/a" })])]));
      const again = await preToolUse(preInput("Read", { file_path: "/a" }, { id: "r2", transcript }), ctx);
      expect(ctx.state()!.main.history).toMatchObject([{ tool: "Read", at: 1, toolUseId: "r1" }]);
      expect(again.output).toEqual({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          additionalContext: expect.stringContaining("utility: this Read call is an exact repeat of one that already ran (step 1)"),
        },
      });
      expect(ctx.records.at(-1)).toMatchObject({ decision: "observed", repeat: { ofStep: 1, toolUseId: "r1" } });
      appendFileSync(transcript, jsonl([result("r2"), assistant("m3", [call("b1", "Bash", { command: "touch /a" })])]));
      await preToolUse(preInput("Bash", { command: "touch /a" }, { id: "b1", transcript }), ctx);
      appendFileSync(transcript, jsonl([result("b1"), assistant("m4", [call("r3", "Read", { file_path: "/a" })])]));
      expect(await preToolUse(preInput("Read", { file_path: "/a" }, { id: "r3", transcript }), ctx)).toEqual({});
      expect(ctx.records.at(-1)!.repeat).toBeUndefined();
    } finally {
      dir.remove();
    }
  });
});

describe("gating by skill activation, agent definition and dispatch", () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.remove());

  it("a skill activated in the scope's transcript gates the main scope", async () => {
    dir = tempDir();
    const folder = join(dir.path, "skills", "x");
    const transcript = dir.file(
      "t.jsonl",
      jsonl([
        prompt("why?"),
        assistant("m1", [call("t1", "Skill", { skill: "x" })]),
        meta(`Base directory for this skill: ${folder}\n\n# X`),
      ]),
    );
    const ctx = fakeContext();
    ctx.skills.set(join(folder, "SKILL.md"), source(join(folder, "SKILL.md")));
    const input = preInput("Bash", { command: "true" }, { transcript });
    expect(denyReason(await preToolUse(input, ctx))).toContain("No action report");
    expect(ctx.records[0]).toMatchObject({ gated: true, gatedBy: join(folder, "SKILL.md") });
    expect(ctx.state()!.main.sources).toHaveLength(1);
  });

  it("an ungated skill does not gate, and is not read again", async () => {
    dir = tempDir();
    const folder = join(dir.path, "skills", "plain");
    const transcript = dir.file("t.jsonl", jsonl([prompt("why?"), meta(`Base directory for this skill: ${folder}\n\nbody`)]));
    const ctx = fakeContext();
    let loads = 0;
    ctx.loadSkill = async () => void (loads += 1) as undefined;
    await preToolUse(preInput("Bash", {}, { transcript }), ctx);
    await preToolUse(preInput("Bash", {}, { transcript }), ctx);
    expect(loads).toBe(1);
    expect(ctx.records.map((r) => r.gated)).toEqual([false, false]);
  });

  it("a subagent whose definition opts in is gated from its first call, in its own transcript, without delegate", async () => {
    const ctx = fakeContext();
    ctx.agents.set("ufix:gated-helper", source("/plugins/ufix/agents/gated-helper.md"));
    const agent = { id: "a1234", type: "ufix:gated-helper" };
    const bare = preInput("Bash", { command: "true" }, { agent });
    expect(denyReason(await preToolUse(bare, ctx))).toContain("No action report");
    expect(ctx.waits[0]!.ref).toMatchObject({
      kind: "agent",
      agentId: "a1234",
      transcript: `/nonexistent/utility-unit/${SESSION}/subagents/agent-a1234.jsonl`,
    });
    const delegate = preInput("Agent", { subagent_type: "x" }, { agent });
    ctx.texts.set(delegate.tool_use_id, report("delegate", "0.28", GOOD));
    expect(denyReason(await preToolUse(delegate, ctx))).toContain(
      "Action delegate is not available in subagent scope; the actions here are respond, retrieve, tool_call, verify, stop.",
    );
    const ok = preInput("Bash", { command: "true" }, { agent });
    ctx.texts.set(ok.tool_use_id, report("verify", "0.28", GOOD));
    expect(await preToolUse(ok, ctx)).toEqual({});
    expect(ctx.records.map((r) => [r.scope, r.agentId, r.agentType, r.decision, r.step])).toEqual([
      ["subagent", "a1234", "ufix:gated-helper", "refused", 0],
      ["subagent", "a1234", "ufix:gated-helper", "refused", 0],
      ["subagent", "a1234", "ufix:gated-helper", "passed", 1],
    ]);
    const state = ctx.state()!;
    expect(state.agents.a1234).toMatchObject({ step: 1, refusals: 2 });
    expect(state.main).toMatchObject({ step: 0, refusals: 0 });
  });

  it("an ungated subagent never waits and never refuses", async () => {
    const ctx = fakeContext();
    const r = await preToolUse(preInput("Bash", {}, { agent: { id: "a99", type: "general-purpose" } }), ctx);
    expect(r).toEqual({});
    expect(ctx.waits).toEqual([]);
    expect(ctx.records[0]).toMatchObject({ scope: "subagent", decision: "observed", gated: false });
  });

  it("a dispatch skill permits delegate in the main scope", async () => {
    const ctx = fakeContext();
    seedMainGate(ctx, source(SKILL, { scope: "dispatch" }));
    const input = preInput("Agent", { subagent_type: "x", prompt: "p" });
    ctx.texts.set(input.tool_use_id, report("delegate", "0.28", GOOD));
    expect(await preToolUse(input, ctx)).toEqual({});
    expect(ctx.records[0]).toMatchObject({ scope: "dispatch", decision: "passed", report: { action: "delegate" } });
  });

  it("an unsafe agent id never becomes a path: ungated, the call goes on with the reason on stderr", async () => {
    const ctx = fakeContext();
    const r = await preToolUse(preInput("Bash", {}, { agent: { id: "../../etc", type: "x" } }), ctx);
    expect(r.output).toBeUndefined();
    expect(r.stderr).toMatch(/agent id "..\/..\/etc" is not a safe id.*not gated, so the call goes on/);
    expect(ctx.records).toEqual([]);
  });

  it("an unsafe agent id of a subagent whose definition opts in is refused with the reason", async () => {
    const ctx = fakeContext();
    ctx.agents.set("ufix:gated-helper", source("/agents/gated-helper.md"));
    const r = await preToolUse(preInput("Bash", {}, { agent: { id: "../../etc", type: "ufix:gated-helper" } }), ctx);
    expect(denyReason(r)).toMatch(/^utility gate: the hook failed \(agent id "..\/..\/etc" is not a safe id.*refused/);
  });
});

describe("state that cannot be read (SPEC §10)", () => {
  const broken: StateStore = {
    read: () => {
      throw new StateUnreadableError("the state file /x/state.json is not valid JSON");
    },
    transact: async () => {
      throw new StateUnreadableError("the state file /x/state.json is not valid JSON");
    },
  };

  it("an ungated scope goes on, with one line on stderr", async () => {
    const ctx = fakeContext(broken);
    const r = await preToolUse(preInput("Bash"), ctx);
    expect(r.output).toBeUndefined();
    expect(r.stderr).toBe("utility: the state file /x/state.json is not valid JSON; this scope is not gated, so the call goes on.");
  });

  it("a gated scope fails closed, with the reason", async () => {
    const ctx = fakeContext(broken);
    ctx.agents.set("ufix:gated-helper", source("/agents/gated-helper.md"));
    const r = await preToolUse(preInput("Bash", {}, { agent: { id: "a1", type: "ufix:gated-helper" } }), ctx);
    expect(denyReason(r)).toBe(
      "utility gate: the gate's state cannot be read (the state file /x/state.json is not valid JSON), so no call can be checked; the user can fix or delete that file, or end the task.",
    );
  });

  it("a gated scope's refusal is logged under its own rule, so that `utility report` counts it", async () => {
    const ctx = fakeContext(broken);
    ctx.agents.set("ufix:gated-helper", source("/agents/gated-helper.md"));
    await preToolUse(preInput("Bash", { command: "ls" }, { agent: { id: "a1", type: "ufix:gated-helper" } }), ctx);
    expect(ctx.records).toHaveLength(1);
    expect(LogRecordSchema.parse(ctx.records[0])).toMatchObject({
      event: "PreToolUse",
      tool: "Bash",
      decision: "refused",
      rule: "state_unreadable",
      reason: expect.stringMatching(/^the gate's state cannot be read \(the state file \/x\/state.json is not valid JSON\)/),
      gated: true,
      gatedBy: "/agents/gated-helper.md",
      agentId: "a1",
    });
    expect(summarize(ctx.records).scopes[0]?.refusalsByRule).toEqual({ state_unreadable: 1 });
  });

  it("an ungated scope's trouble writes no refusal", async () => {
    const ctx = fakeContext(broken);
    await preToolUse(preInput("Bash"), ctx);
    expect(ctx.records.filter((r) => r.decision === "refused")).toEqual([]);
  });
});

describe("state a fresh session starts with", () => {
  it("creates the session on its first call", async () => {
    const ctx = fakeContext();
    await preToolUse(preInput("Bash"), ctx);
    expect(ctx.state()).toMatchObject({ ...newSession(SESSION), main: { step: 1, task: 1 } });
  });
});
