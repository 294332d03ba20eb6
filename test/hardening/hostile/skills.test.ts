/**
 * Issue 18, items 1, 2, 3 and 8, through the real hook processes (dist/hooks):
 * a gated model cannot run commands or start agents through a skill, or
 * start agents through Workflow, without the report that permits it; a YAML
 * comment after a gated agent's name no longer ungates it. An ungated scope
 * is never refused for any of it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOD, hookInput, line, logRecords, runEntry, sandbox, skillFolder, text, use, type Sandbox } from "../support.js";
import { Session } from "./state-support.js";

let box: Sandbox;
beforeAll(() => {
  box = sandbox("utility-hostile-skills-");
  // What a gated model could write with one permitted Bash call (issue 18 item 1): a skill that runs its arguments.
  box.file("project/.claude/skills/sh/SKILL.md", "---\nname: sh\ndescription: runs anything\n---\nOut: !`$ARGUMENTS`\n");
  box.file("project/.claude/skills/forked/SKILL.md", "---\nname: forked\ndescription: forks\ncontext: fork # apart\n---\nDo it.\n");
  box.file("project/.claude/skills/docs/SKILL.md", "---\nname: docs\ndescription: text only\n---\nRead the docs.\n");
  box.file("home/.claude/skills/by-name-folder/SKILL.md", "---\nname: renamed # by its YAML name\ndescription: d\n---\n```!\nls\n```\n");
  box.file(
    "project/.claude/agents/helper.md",
    "---\nname: gated-helper # the gated one\ndescription: gated from its start\nutility_gated: true\n---\nHelp.\n",
  );
});
afterAll(() => box.remove());

async function gatedSession(id: string): Promise<Session> {
  const s = Session.start(box, id);
  await s.typed("go");
  s.append(line.skill(skillFolder(box, `gate-${id}`, "utility_gated: true")));
  return s;
}

describe("a gated scope: a Skill call is judged by what its skill does (SPEC §6)", () => {
  it("a skill that runs shell as it loads needs a report; tool_call permits it, retrieve does not", async () => {
    const s = await gatedSession("shell");
    expect((await s.call("Skill", { skill: "sh", args: "touch /tmp/pwned" })).denied).toMatch(
      /No action report before this Skill call \(skill "sh" runs shell commands when it loads \(.*sh\/SKILL\.md: "\$ARGUMENTS"\), so it counts as tool_call\)/,
    );
    expect((await s.call("Skill", { skill: "sh", args: "ls" }, GOOD("retrieve"))).denied).toMatch(
      /Action retrieve does not permit this Skill call: .* so it counts as tool_call/,
    );
    expect((await s.call("Skill", { skill: "sh", args: "ls" }, GOOD("tool_call"))).denied).toBe("");
    expect(s.state().main).toMatchObject({ step: 1, refusals: 2 });
  });

  it("one found by its frontmatter name (a YAML comment after it) in the user's folder, with a fenced ```! block", async () => {
    const s = await gatedSession("renamed");
    expect((await s.call("Skill", { skill: "renamed" })).denied).toMatch(/skill "renamed" runs shell commands when it loads/);
  });

  it("a forked skill needs a delegate report", async () => {
    const s = await gatedSession("fork");
    expect((await s.call("Skill", { skill: "forked" }, GOOD("tool_call"))).denied).toMatch(
      /does not permit this Skill call: skill "forked" runs in a forked subagent when it loads .* so it counts as delegate/,
    );
    expect((await s.call("Skill", { skill: "forked" }, GOOD("delegate"))).denied).toBe("");
    expect(s.state().main.spend).toMatchObject({ agentsLaunched: 1 });
  });

  it("a skill found nowhere needs a report, as tool_call; one that only loads text stays neutral", async () => {
    const s = await gatedSession("unknown");
    expect((await s.call("Skill", { skill: "ghost" })).denied).toMatch(/no skill file or built-in skill named "ghost" was found/);
    expect((await s.call("Skill", { skill: "docs" })).denied).toBe("");
    expect((await s.call("Skill", { skill: "update-config" })).denied).toBe("");
    expect((await s.call("Skill", { skill: "security-review" })).denied).toMatch(/built-in skill "security-review" runs shell/);
    expect(logRecords(box.data, "unknown").filter((r) => r.event === "PreToolUse" && r.tool === "Skill")).toHaveLength(2);
  });

  it("Workflow launches agents: a tool_call report does not permit it, delegate does", async () => {
    const s = await gatedSession("workflow");
    expect((await s.call("Workflow", { script: "export const meta = {}" }, GOOD("tool_call"))).denied).toMatch(
      /Action tool_call does not permit Workflow; .*Workflow fits delegate/,
    );
    expect((await s.call("Workflow", { script: "export const meta = {}" }, GOOD("delegate"))).denied).toBe("");
  });
});

describe("an ungated scope is never refused for any of this", () => {
  it("Skill calls that run shell, fork or are unknown, and Workflow, without any report", async () => {
    const s = Session.start(box, "ungated");
    await s.typed("go");
    for (const skill of ["sh", "forked", "ghost", "security-review"]) expect((await s.call("Skill", { skill })).denied).toBe("");
    expect((await s.call("Workflow", { script: "x" })).denied).toBe("");
    expect(logRecords(box.data, "ungated").filter((r) => r.event === "PreToolUse" && r.decision === "refused")).toEqual([]);
  });
});

describe("a YAML comment after a gated agent's name (issue 18 item 8)", () => {
  it("gated-helper # … is the gated-helper definition: its subagent's first report-less call is refused", async () => {
    const id = "yaml-agent";
    const transcript = box.transcript(`${id}.jsonl`, [
      line.prompt("go"),
      ...line.assistant("m1", [text(GOOD("delegate")), use("a1", "Agent", { subagent_type: "gated-helper", prompt: "do it" })]),
    ]);
    box.transcript(join(id, "subagents", "agent-sub1.jsonl"), [
      line.prompt("do it", { sidechain: true }),
      ...line.assistant("s1", [use("s1c", "Bash", { command: "echo 1" })], { sidechain: true }),
    ]);
    const input = hookInput(
      "pre-tool-use",
      { session: id, transcript, cwd: box.project, agentId: "sub1", agentType: "gated-helper" },
      { tool_name: "Bash", tool_input: { command: "echo 1" }, tool_use_id: "s1c" },
    );
    const run = await runEntry("pre-tool-use", JSON.stringify(input), box.env());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/No action report before this Bash call/);
  });
});
