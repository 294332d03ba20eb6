/**
 * Caps per subagent (SPEC §16), in the real client: the user's settings cap
 * what ONE subagent spends; the scripted model reports each reply's usage,
 * so a subagent's own spend crosses its cap at a known message. A subagent
 * past its cap has its next tool call refused and is told to report; its
 * parent and the rest of the session go on. Every kind of subagent counts:
 * background, nested, a Workflow's.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { homeWithOptions, runClaude, type RunClaudeResult } from "../support/claude.js";
import { firstUserText, routeByPrompt, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { id, logOf, markerDir, ran, touch, type Rec } from "../gate/support.js";

/** Each reply's usage: `input` input tokens (output 0), by the conversation's first prompt. */
function usageBy(routes: Array<[string, number]>, otherwise = 10) {
  return (req: RecordedRequest) => {
    const first = firstUserText(req);
    const input = routes.find(([mark]) => first.includes(mark))?.[1] ?? otherwise;
    return { input_tokens: input, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  };
}

const pre = (run: RunClaudeResult): Rec[] => logOf(run).filter((r) => r.event === "PreToolUse");
const byId = (run: RunClaudeResult, toolUseId: string): Rec | undefined => pre(run).find((r) => r.toolUseId === toolUseId);
const refusedIn = (run: RunClaudeResult) => pre(run).filter((r) => r.decision === "refused");

describe("a background subagent past its token cap", () => {
  it("is refused at its next call, told to report; the main conversation goes on", async () => {
    const marks = markerDir();
    const ids = { agent: id("bg_agent"), bg1: id("bg1"), bg2: id("bg2"), main1: id("main1") };
    const run = await runClaude({
      prompt: "start the background job",
      pluginDir: ROOT,
      home: homeWithOptions({ agent_token_budget: 3000 }),
      allowedTools: ["Bash", "Agent"],
      timeoutMs: 120_000,
      // The subagent's messages report 2,000 tokens each: its second call comes at 4,000 of 3,000.
      usage: usageBy([["BG-JOB", 2000]]),
      script: [
        [
          toolUse(
            "Agent",
            { description: "bg job", prompt: "BG-JOB: go", subagent_type: "general-purpose", run_in_background: true },
            ids.agent,
          ),
        ],
        [touch(join(marks, "main1"), ids.main1)],
        [text("Main goes on.")],
        [text("Done.")],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        ["BG-JOB", [[touch(join(marks, "bg1"), ids.bg1)], [touch(join(marks, "bg2"), ids.bg2)], [text("Reporting what I have.")]]],
      ]),
    });
    try {
      expect(ran(join(marks, "bg1"))).toBe(true);
      expect(ran(join(marks, "bg2"))).toBe(false);
      expect(ran(join(marks, "main1"))).toBe(true);
      const refused = byId(run, ids.bg2)!;
      expect(refused).toMatchObject({ decision: "refused", rule: "budget_spent", scope: "subagent", gated: false });
      expect(refused.reason).toMatch(
        /^the subagent general-purpose \(agent [^)]+\) has spent its token cap: 4,000 tokens of 3,000 \(your agent_token_budget setting\)\. Stop now: reply to your parent/,
      );
      // Nothing else refused: the main conversation's calls ran.
      expect(refusedIn(run).map((r) => r.toolUseId)).toEqual([ids.bg2]);
      expect(byId(run, ids.main1)).toMatchObject({ decision: "observed" });
      // The subagent read why, and was told its cap when it started.
      const sub = run.model.subagentRequests();
      expect(JSON.stringify(sub.at(-1)?.body)).toContain("has spent its token cap");
      expect(JSON.stringify(sub[0]?.body)).toContain("utility budget left: this subagent 3k tokens");
    } finally {
      run.cleanup();
    }
  });
});

describe("a nested subagent", () => {
  it("is held to its own cap; the subagent that launched it, under its own, goes on", async () => {
    const marks = markerDir();
    const ids = { outer: id("outer"), inner: id("inner"), in1: id("in1"), in2: id("in2"), out1: id("out1") };
    const run = await runClaude({
      prompt: "delegate",
      pluginDir: ROOT,
      home: homeWithOptions({ agent_token_budget: 3000 }),
      allowedTools: ["Bash", "Agent"],
      timeoutMs: 150_000,
      usage: usageBy([
        ["INNER-JOB", 2000],
        ["OUTER-JOB", 1000],
      ]),
      script: [
        [toolUse("Agent", { description: "outer", prompt: "OUTER-JOB: go", subagent_type: "general-purpose" }, ids.outer)],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        [
          "OUTER-JOB",
          [
            [toolUse("Agent", { description: "inner", prompt: "INNER-JOB: go", subagent_type: "general-purpose" }, ids.inner)],
            [touch(join(marks, "out1"), ids.out1)],
            [text("outer done")],
          ],
        ],
        ["INNER-JOB", [[touch(join(marks, "in1"), ids.in1)], [touch(join(marks, "in2"), ids.in2)], [text("inner reports")]]],
      ]),
    });
    try {
      const launched = byId(run, ids.inner);
      expect(launched, "the outer subagent could not launch a nested one in this client").toBeDefined();
      expect(ran(join(marks, "in1"))).toBe(true);
      expect(ran(join(marks, "in2"))).toBe(false);
      expect(byId(run, ids.in2)).toMatchObject({ decision: "refused", rule: "budget_spent" });
      expect(byId(run, ids.in2)!.reason).toContain("has spent its token cap: 4,000 tokens of 3,000");
      // The outer one spent 2,000 of its own by its second call: it goes on.
      expect(ran(join(marks, "out1"))).toBe(true);
      expect(refusedIn(run).map((r) => r.toolUseId)).toEqual([ids.in2]);
    } finally {
      run.cleanup();
    }
  });
});

describe("a Workflow's agent", () => {
  it("is held to the per-agent tool-call cap", async () => {
    const marks = markerDir();
    const script =
      "export const meta = { name: 'capped', description: 'one agent' }\nconst a = await agent('WF-CAP: go', { label: 'a' })\nreturn { a }\n";
    const ids = { wf1: id("wf1"), wf2: id("wf2") };
    const run = await runClaude({
      prompt: "run the workflow",
      pluginDir: ROOT,
      home: homeWithOptions({ agent_max_tool_calls: 1 }),
      allowedTools: ["Bash", "Read", "Workflow"],
      timeoutMs: 120_000,
      script: [[toolUse("Workflow", { script }, id("wf"))], [text("Waiting.")], [text("Done.")], [text("Done.")]],
      subagentScript: routeByPrompt([
        ["WF-CAP", [[touch(join(marks, "wf1"), ids.wf1)], [touch(join(marks, "wf2"), ids.wf2)], [text("wf reports")]]],
      ]),
    });
    try {
      expect(ran(join(marks, "wf1"))).toBe(true);
      expect(ran(join(marks, "wf2"))).toBe(false);
      expect(byId(run, ids.wf2)).toMatchObject({ decision: "refused", rule: "budget_spent", scope: "subagent" });
      expect(byId(run, ids.wf2)!.reason).toContain("has made its 1 tool call (your agent_max_tool_calls setting)");
    } finally {
      run.cleanup();
    }
  });
});

describe("an ungated session with only a per-agent cap", () => {
  it("is refused nothing else: the main conversation's calls and a subagent under its cap all run", async () => {
    const marks = markerDir();
    const names = ["m1", "m2", "m3", "s1"];
    const run = await runClaude({
      prompt: "work",
      pluginDir: ROOT,
      home: homeWithOptions({ agent_token_budget: 100_000, agent_max_tool_calls: 5 }),
      allowedTools: ["Bash", "Read", "Agent", "TodoWrite"],
      timeoutMs: 120_000,
      usage: usageBy([], 5000),
      script: [
        [touch(join(marks, "m1"))],
        [toolUse("TodoWrite", { todos: [{ content: "x", status: "pending", activeForm: "x" }] })],
        [touch(join(marks, "m2")), touch(join(marks, "m3"))],
        [toolUse("Agent", { description: "small", prompt: "SMALL: go", subagent_type: "general-purpose" })],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([["SMALL", [[touch(join(marks, "s1"))], [text("small done")]]]]),
    });
    try {
      for (const name of names) expect(ran(join(marks, name)), name).toBe(true);
      expect(refusedIn(run)).toEqual([]);
    } finally {
      run.cleanup();
    }
  });
});
