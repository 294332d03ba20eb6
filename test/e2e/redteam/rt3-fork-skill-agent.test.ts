/**
 * Red team 3 (class 1/2): the fix in src/engine/session/fork.ts gates every
 * subagent "of the skill's agent type" (`agent:` as written, general-purpose
 * by default) that starts between a gated `context: fork` Skill call and its
 * result. Attacks: `agent:` naming a custom agent, a type Claude Code does
 * not know (it may fall back), a type spelled in another case or with a
 * trailing space, an agent that itself opts in, and two gated forked skills
 * in one message. Promise (docs/gate.md): the forked subagent's report-less
 * Bash is refused and does not run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestText, systemText, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { gateRun, id, logOf, markerDir, ran, touch } from "../gate/support.js";

const skill = (name: string, tag: string, extra: string, gated = true) =>
  `---\nname: ${name}\ndescription: investigates apart (${tag})\ncontext: fork\n${extra}${gated ? "utility_gated: true\n" : ""}---\n\n${tag}: investigate, with an action report before every tool call.\n`;
const HELPER = "---\nname: helper\ndescription: a helper agent\n---\n\nYou help.\n";
const GATED_HELPER = "---\nname: ghelper\ndescription: a gated helper agent\nutility_gated: true\n---\n\nYou help, reporting.\n";

/** A subagent script: the first request showing a tag gets that tag's call, every later request ends the subagent. */
function once(calls: Record<string, () => ReturnType<typeof touch>>) {
  const seen = new Set<string>();
  return (r: RecordedRequest) => {
    const t = requestText(r) + systemText(r);
    for (const [tag, call] of Object.entries(calls))
      if (t.includes(tag) && !seen.has(tag)) {
        seen.add(tag);
        return [text("Running."), call()];
      }
    return [text("Forked done.")];
  };
}

const CASES = [
  { name: "control: no agent:", agent: "", agents: {} as Record<string, string> },
  { name: "agent: a custom agent (helper)", agent: "agent: helper\n", agents: { helper: HELPER } },
  { name: "agent: an unknown type", agent: "agent: no-such-agent\n", agents: {} },
  { name: "agent: General-Purpose (case)", agent: "agent: General-Purpose\n", agents: {} },
  { name: "agent: 'general-purpose ' (trailing space)", agent: 'agent: "general-purpose "\n', agents: {} },
  { name: "agent: Explore (built-in)", agent: "agent: Explore\n", agents: {} },
];

describe.each(CASES)("a gated context: fork skill with $name, from an ungated main", ({ agent, agents }) => {
  it("its subagent's report-less Bash is refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "forky"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "forky", "SKILL.md"), skill("forky", "FORKY-TASK", agent));
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    for (const [n, body] of Object.entries(agents)) writeFileSync(join(cwd, ".claude", "agents", `${n}.md`), body);
    const calls = { load: id("rt3_forky"), bare: id("rt3_forky_bare") };
    const run = await gateRun({
      prompt: "investigate",
      cwd,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 90_000,
      whenExhausted: "end_turn",
      script: [[toolUse("Skill", { skill: "forky" }, calls.load)], [text("Done.")]],
      subagentScript: once({ "FORKY-TASK": () => touch(join(marks, "bare"), calls.bare) }),
    });
    try {
      const subs = run.model.subagentRequests();
      const rec = logOf(run).find((x) => x.toolUseId === calls.bare && x.event === "PreToolUse");
      console.log(
        agent.trim() || "(none)",
        "| subagent requests:",
        subs.length,
        "skill text:",
        subs.some((x) => requestText(x).includes("FORKY-TASK") || systemText(x).includes("FORKY-TASK")),
        "| bare:",
        rec?.decision,
        rec?.rule,
        rec?.agentType,
        rec?.gated,
        "ran:",
        ran(join(marks, "bare")),
        "| skill result:",
        JSON.stringify(
          logOf(run)
            .filter((x) => x.toolUseId === calls.load)
            .map((x) => [x.event, x.decision]),
        ),
      );
      expect(subs.length).toBeGreaterThan(0);
      expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});

describe("two gated forked skills in one message", () => {
  it("both subagents' report-less Bash calls are refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    for (const [n, tag] of [
      ["forka", "FORK-A-TASK"],
      ["forkb", "FORK-B-TASK"],
    ]) {
      mkdirSync(join(cwd, ".claude", "skills", n!), { recursive: true });
      writeFileSync(join(cwd, ".claude", "skills", n!, "SKILL.md"), skill(n!, tag!, ""));
    }
    const calls = { a: id("rt3_fa"), b: id("rt3_fb"), bareA: id("rt3_fa_bare"), bareB: id("rt3_fb_bare") };
    const run = await gateRun({
      prompt: "investigate",
      cwd,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 90_000,
      whenExhausted: "end_turn",
      script: [[toolUse("Skill", { skill: "forka" }, calls.a), toolUse("Skill", { skill: "forkb" }, calls.b)], [text("Done.")]],
      subagentScript: once({
        "FORK-A-TASK": () => touch(join(marks, "a"), calls.bareA),
        "FORK-B-TASK": () => touch(join(marks, "b"), calls.bareB),
      }),
    });
    try {
      const a = logOf(run).find((x) => x.toolUseId === calls.bareA && x.event === "PreToolUse");
      const b = logOf(run).find((x) => x.toolUseId === calls.bareB && x.event === "PreToolUse");
      console.log(
        "subs:",
        run.model.subagentRequests().length,
        "| A:",
        a?.decision,
        a?.gated,
        ran(join(marks, "a")),
        "| B:",
        b?.decision,
        b?.gated,
        ran(join(marks, "b")),
      );
      console.log("log:", JSON.stringify(logOf(run).map((x) => [x.event, x.tool, x.decision, x.rule, x.scope, x.gated, x.agentType])));
      expect({ a: a?.decision, aRan: ran(join(marks, "a")), b: b?.decision, bRan: ran(join(marks, "b")) }).toEqual({
        a: "refused",
        aRan: false,
        b: "refused",
        bRan: false,
      });
    } finally {
      run.cleanup();
    }
  });
});

describe("a non-opted-in forked skill whose agent: opts in (utility_gated agent definition)", () => {
  it("its subagent's report-less Bash is refused", async () => {
    const marks = markerDir();
    const cwd = markerDir();
    mkdirSync(join(cwd, ".claude", "skills", "forky"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "forky", "SKILL.md"), skill("forky", "FORKY-TASK", "agent: ghelper\n", false));
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "agents", "ghelper.md"), GATED_HELPER);
    const calls = { load: id("rt3_forky_ga"), bare: id("rt3_forky_ga_bare") };
    const run = await gateRun({
      prompt: "investigate",
      cwd,
      allowedTools: ["Bash", "Read", "Skill", "Agent"],
      timeoutMs: 90_000,
      whenExhausted: "end_turn",
      script: [[toolUse("Skill", { skill: "forky" }, calls.load)], [text("Done.")]],
      subagentScript: once({ "FORKY-TASK": () => touch(join(marks, "bare"), calls.bare) }),
    });
    try {
      const rec = logOf(run).find((x) => x.toolUseId === calls.bare && x.event === "PreToolUse");
      console.log(
        "subs:",
        run.model.subagentRequests().length,
        "| bare:",
        rec?.decision,
        rec?.rule,
        rec?.agentType,
        rec?.gated,
        "ran:",
        ran(join(marks, "bare")),
      );
      expect(run.model.subagentRequests().length).toBeGreaterThan(0);
      expect({ decision: rec?.decision, ran: ran(join(marks, "bare")) }).toEqual({ decision: "refused", ran: false });
    } finally {
      run.cleanup();
    }
  });
});
