/**
 * Issue 31, hole 8, in the real client, in a session no skill gates: past
 * the user's token budget a Bash is refused, and so is a Skill call whose
 * skill runs `!` shell as it loads (it acts as a tool_call), while a skill
 * that only loads text still goes on (it is planning). Planning calls go on
 * past the budget, but no more than PLANNING_CALLS_PAST_BUDGET and none that
 * repeats another: a ToolSearch loop is refused after a few. The ungated
 * twin, with no budget, refuses nothing and the skill's shell runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, makeScratchHome, runClaude, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse, type RecordedRequest, type ScriptBlock } from "../support/scripted-model.js";
import { ROOT } from "../../support/paths.js";
import { PLANNING_CALLS_PAST_BUDGET } from "../../../src/engine/defaults.js";
import { id, markerDir, ran, recordOf, resultFor } from "./support.js";

function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

const tokens = (input: number) => ({ input_tokens: input, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

/** Two project skills: one whose body runs a shell command as it loads (leaving `skill-<args>` in `marks`), one that loads text only. */
function skills(marks: string): string[] {
  const root = markerDir();
  const write = (name: string, body: string) => {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${name} for the test\n---\n${body}\n`);
    return join(root, name);
  };
  return [write("shell-note", `Notes.\n\n!\`touch ${marks}/skill-$ARGUMENTS\`\n`), write("plain-note", "Notes: answer briefly.")];
}

const QUERIES = ["select:TaskStop", "select:CronDelete", "select:WebFetch", "select:WebSearch", "select:Monitor", "select:CronList"];

interface Ids {
  early: string;
  spend: string;
  shell: string;
  plain: string;
  search: string[];
  again: string;
}
const newIds = (label: string): Ids => ({
  early: id(`${label}early`),
  spend: id(`${label}spend`),
  shell: id(`${label}shell`),
  plain: id(`${label}plain`),
  search: QUERIES.map((_, i) => id(`${label}search${i}`)),
  again: id(`${label}again`),
});

/**
 * The shell skill while the budget holds; a Bash in the big message; the
 * shell skill again; the text skill; ToolSearch, the same ToolSearch again,
 * then a loop of new ones; an answer.
 */
function script(ids: Ids, marks: string): ScriptBlock[][] {
  const search = (i: number, call = ids.search[i]!) => [toolUse("ToolSearch", { query: QUERIES[i] }, call)];
  return [
    [toolUse("Skill", { skill: "shell-note", args: "early" }, ids.early)],
    [toolUse("Bash", { command: `touch ${join(marks, "spend")}`, description: "spend" }, ids.spend)],
    [toolUse("Skill", { skill: "shell-note", args: "late" }, ids.shell)],
    [toolUse("Skill", { skill: "plain-note" }, ids.plain)],
    search(0),
    search(0, ids.again),
    ...QUERIES.slice(1).map((_, i) => search(i + 1)),
    [text("The budget is spent; here is what I have.")],
  ];
}

async function session(ids: Ids, options: Record<string, unknown> | undefined): Promise<{ run: RunClaudeResult; marks: string }> {
  const marks = markerDir();
  const run = await runClaude({
    prompt: "take notes, then look for tools",
    pluginDir: ROOT,
    ...(options ? { home: homeWithOptions(options) } : {}),
    projectSkills: skills(marks),
    allowedTools: ["Bash", "Skill", "ToolSearch"],
    whenExhausted: "error",
    timeoutMs: 120_000,
    // The second message is the big one: 3005 tokens against a budget of 2000.
    usage: (req: RecordedRequest) => tokens(req.kind === "main" && req.turn === 1 ? 3000 : 10),
    script: script(ids, marks),
  });
  return { run, marks };
}

const denied = (run: RunClaudeResult) => assertRunOk(run).permission_denials.map((d) => d.tool_use_id);

describe("past the user's token budget, in a scope no skill gates", () => {
  const ids = newIds("b");
  let s: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    s = await session(ids, { token_budget: 2000 });
  }, 150_000);
  afterAll(() => s?.run.cleanup());

  it("before it is spent, the shell skill runs, counted as the call it acts as: a step with its record (red team 10: tool-call budgets count it)", () => {
    expect(denied(s.run)).not.toContain(ids.early);
    expect(recordOf(s.run, ids.early)).toMatchObject({ decision: "observed", tool: "Skill", gated: false });
    expect(ran(join(s.marks, "skill-early"))).toBe(true);
  });

  it("once spent, the Bash and the shell skill are refused budget_spent, and the skill's shell never runs", () => {
    for (const call of [ids.spend, ids.shell]) {
      expect(recordOf(s.run, call)).toMatchObject({ decision: "refused", rule: "budget_spent", gated: false });
      expect(denied(s.run)).toContain(call);
    }
    expect(recordOf(s.run, ids.shell).reason).toContain("tokens of 2,000 (your token_budget setting;");
    expect(resultFor(s.run.model.mainRequests(), ids.shell).is_error).toBe(true);
    expect(ran(join(s.marks, "spend"))).toBe(false);
    expect(ran(join(s.marks, "skill-late"))).toBe(false);
  });

  it(`the text skill and ToolSearch go on, ${PLANNING_CALLS_PAST_BUDGET} planning calls in all; a repeat and the rest of the loop are refused`, () => {
    const goOn = [ids.plain, ids.search[0]!, ids.search[1]!];
    expect(goOn).toHaveLength(PLANNING_CALLS_PAST_BUDGET);
    for (const call of goOn) {
      expect(denied(s.run)).not.toContain(call);
      expect(resultFor(s.run.model.mainRequests(), call).is_error).toBe(false);
    }
    const again = recordOf(s.run, ids.again);
    expect(again).toMatchObject({ tool: "ToolSearch", decision: "refused", rule: "budget_spent", gated: false });
    expect(again.reason).toContain(
      `Past it, at most ${PLANNING_CALLS_PAST_BUDGET} planning calls go on, none repeating another; this ToolSearch call repeats one made since it was spent.`,
    );
    const rest = ids.search.slice(2);
    for (const call of rest) {
      expect(recordOf(s.run, call)).toMatchObject({ decision: "refused", rule: "budget_spent" });
      expect(recordOf(s.run, call).reason).toContain(`; ${PLANNING_CALLS_PAST_BUDGET} were made since it was spent.`);
    }
    expect(denied(s.run)).toEqual(expect.arrayContaining([ids.again, ...rest]));
  });
});

describe("the ungated twin: the same calls with no budget", () => {
  const ids = newIds("t");
  let s: Awaited<ReturnType<typeof session>>;
  beforeAll(async () => {
    s = await session(ids, undefined);
  }, 150_000);
  afterAll(() => s?.run.cleanup());

  it("refuses nothing: both shell skills run, every ToolSearch goes on", () => {
    expect(denied(s.run)).toEqual([]);
    expect(ran(join(s.marks, "skill-early")) && ran(join(s.marks, "skill-late")) && ran(join(s.marks, "spend"))).toBe(true);
    for (const call of [ids.plain, ids.again, ...ids.search]) expect(resultFor(s.run.model.mainRequests(), call).is_error).toBe(false);
    expect(recordOf(s.run, ids.spend).decision).toBe("observed");
  });
});
