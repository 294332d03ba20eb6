/**
 * Internal errors (issue 10, item 4) and the hook's own deadline: whatever
 * goes wrong inside PreToolUse, a gated scope gets a refusal with the reason
 * (an undecided PreToolUse lets the call run), and an ungated one goes on
 * with one line on stderr. Real hook processes throughout.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectOneLineStderr,
  hookInput,
  jsonl,
  line,
  logRecords,
  nearDeadlineContext,
  readState,
  runEntry,
  runInProcessAsProc,
  sandbox,
  text,
  use,
  type Sandbox,
} from "../support.js";
import { callAfter, decisionOf } from "./support.js";

let box: Sandbox;
beforeAll(() => {
  box = sandbox("utility-interr-");
  box.file(
    "project/.claude/agents/gated-helper.md",
    "---\nname: gated-helper\ndescription: gated from its start\nutility_gated: true\n---\nHelp.\n",
  );
  box.file("project/.claude/agents/free-helper.md", "---\nname: free-helper\ndescription: not gated\n---\nHelp.\n");
});
afterAll(() => box.remove());

const GOOD_REPORT = "Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: x";
const PROTOTYPE_KEYS = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

describe("tool names that are Object.prototype keys", () => {
  it.each(PROTOTYPE_KEYS)("%s: a gated call with a fitting report is checked like any tool, with no error", async (tool) => {
    const d = await callAfter(box, { before: GOOD_REPORT, tool });
    expect(d.proc.stderr).toBe("");
    expect(d.denied, d.reason).toBe(false);
    const [rec] = logRecords(box.data, d.session).filter((r) => r.event === "PreToolUse");
    expect(rec).toMatchObject({ tool, decision: "passed", gated: true });
  });

  it.each(PROTOTYPE_KEYS)("%s: ungated, and as a tool_use_id whose result the next hooks read, no error", async (tool) => {
    const d = await callAfter(box, { before: "no report", tool, gated: false });
    expect(d.proc.stderr).toBe("");
    expect(d.proc.stdout).toBe("");
    const base = { session: d.session, transcript: d.transcript, cwd: box.project };
    // Its result line, then the same call again with the key as its id: an exact repeat, hinted. Not "__proto__" as an id:
    // the scope reducer's records lose that key (reported to the lead; Claude Code's ids are toolu_…).
    const id = tool === "__proto__" ? "toolu_h2" : tool;
    appendFileSync(
      d.transcript,
      jsonl([line.result("toolu_h1", "ok"), ...line.assistant("m2", [use(id, tool, { command: "echo hostile" })])]),
    );
    const again = hookInput("pre-tool-use", base, { tool_name: tool, tool_input: { command: "echo hostile" }, tool_use_id: id });
    const p = await runEntry("pre-tool-use", JSON.stringify(again), box.env());
    expect(p.stderr).toBe("");
    expect(JSON.parse(p.stdout).hookSpecificOutput.additionalContext).toMatch(/exact repeat/);
    appendFileSync(d.transcript, jsonl([line.result(id, "ok"), ...line.assistant("m3", [text("Done.")])]));
    const stop = await runEntry("stop", JSON.stringify(hookInput("stop", base, { last_assistant_message: "Done." })), box.env());
    expect(stop).toMatchObject({ stdout: "", stderr: "" });
    const records = logRecords(box.data, d.session);
    expect(records.filter((r) => r.event === "PreToolUse").map((r) => r.decision)).toEqual(["observed", "observed"]);
    expect(records.filter((r) => r.event === "Outcome").map((r) => [r.toolUseId, r.outcome.result])).toEqual([
      ["toolu_h1", "ran"],
      [id, "ran"],
    ]);
  });
});

describe("result lines whose ids are Object.prototype keys, of calls no hook decided (a shell can append them)", () => {
  it("are ignored: no outcome, nothing remembered, no error", async () => {
    const d = await callAfter(box, { before: "no report", gated: false });
    expect(d.proc).toMatchObject({ stdout: "", stderr: "" });
    appendFileSync(
      d.transcript,
      jsonl([
        ...PROTOTYPE_KEYS.map((key) => line.result(key, "forged")),
        line.result("toolu_h1", "ok"),
        ...line.assistant("m2", [use("toolu_h2", "Bash", { command: "echo next" })]),
      ]),
    );
    const base = { session: d.session, transcript: d.transcript, cwd: box.project };
    const next = hookInput("pre-tool-use", base, { tool_input: { command: "echo next" }, tool_use_id: "toolu_h2" });
    expect(await runEntry("pre-tool-use", JSON.stringify(next), box.env())).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const records = logRecords(box.data, d.session);
    expect(records.filter((r) => r.event === "Outcome").map((r) => r.toolUseId)).toEqual(["toolu_h1"]);
    expect(readState(box.data, d.session)!.main.history.map((h) => h.toolUseId)).toEqual(["toolu_h1"]);
  });
});

describe("an exception inside PreToolUse", () => {
  /** A subagent call whose agent id cannot become a path: scopeOf throws before any state is read. */
  async function unsafeAgentCall(agentType: string) {
    const session = `interr-${agentType}`;
    const transcript = box.transcript(`${session}.jsonl`, [
      line.prompt("go"),
      ...line.assistant("m1", [text("x"), use("toolu_x", "Bash", {})]),
    ]);
    const input = hookInput(
      "pre-tool-use",
      { session, transcript, cwd: box.project, agentId: "../../etc", agentType },
      { tool_use_id: "toolu_x" },
    );
    return decisionOf(await runEntry("pre-tool-use", JSON.stringify(input), box.env()));
  }

  it("in a gated scope (its definition opts in) refuses, naming what failed", async () => {
    const d = await unsafeAgentCall("gated-helper");
    expect(d.denied).toBe(true);
    expect(d.reason).toMatch(
      /^utility gate: the hook failed \(agent id "\.\.\/\.\.\/etc" is not a safe id.*\), so this call cannot be checked and is refused/,
    );
  });

  it("in an ungated scope stays silent: no decision, one line on stderr", async () => {
    const d = await unsafeAgentCall("free-helper");
    expect(d.proc.stdout).toBe("");
    expectOneLineStderr(d.proc.stderr);
    expect(d.proc.stderr).toMatch(/not a safe id.*this scope is not gated, so the call goes on/);
  });
});

describe("the hook's own deadline", () => {
  it("a gated call whose line never appears is refused at the deadline, with the reason", async () => {
    const d = await callAfter(box, { before: GOOD_REPORT, lineMissing: true, deadlineInMs: 1500 });
    expect(d.denied).toBe(true);
    expect(d.reason).toMatch(/^utility gate: the hook reached its 8000 ms deadline while waiting for the call's line in the transcript/);
  });

  it("an ungated call is never held by it: the first call of a main scope waits, then goes on silently", async () => {
    const d = await callAfter(box, { before: "no report", gated: false, lineMissing: true, deadlineInMs: 1500 });
    expect(d.proc.stdout).toBe("");
    expectOneLineStderr(d.proc.stderr);
    expect(d.proc.stderr).toMatch(/deadline.*this scope is not gated, so the call goes on/);
  });

  it("a state lock held by a live process is waited for only until the deadline", async () => {
    const first = await callAfter(box, { before: GOOD_REPORT });
    expect(first.denied, first.reason).toBe(false);
    const lock = join(box.data, "state", `${first.session}.json.lock`);
    mkdirSync(join(box.data, "state"), { recursive: true });
    // This test's own process: alive, and the lock is fresh, so it is not stale.
    writeFileSync(lock, `${process.pid} ${Date.now()} held-by-test`);
    const input = hookInput(
      "pre-tool-use",
      { session: first.session, transcript: first.transcript, cwd: box.project },
      { tool_input: { command: "echo hostile" }, tool_use_id: "toolu_h1" },
    );
    const proc = await runInProcessAsProc("pre-tool-use", JSON.stringify(input), box.env(), nearDeadlineContext(1500));
    const d = decisionOf(proc);
    expect(d.denied).toBe(true);
    expect(d.reason).toMatch(/state cannot be read.*held by a live process/);
    // Without the deadline the lock is waited for 4 s.
    expect(proc.ms).toBeLessThan(3500);
  });
});
