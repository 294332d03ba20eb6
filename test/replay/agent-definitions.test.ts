// The subagents' definitions read before replay (src/replay/agent-definitions.ts):
// the type from `agent-<id>.meta.json`, the folder from the file's first `cwd`,
// the definition found as the hooks find it; and replay gating a subagent by it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentTypeOf, subagentDefinitions, workingFolderOf } from "../../src/replay/agent-definitions.js";
import { replayFiles } from "../../src/replay/files.js";
import { assistant, call, jsonl, prompt, result, tempDir, type TempDir } from "./support.js";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const READ = { file_path: "/repo/a.ts" };
const GATED = "---\nname: gated-helper\ndescription: gated\nutility_gated: true\n---\n\nReport first.\n";

/** A session whose subagent (type `agentType`, working in `cwd`) reads a file with no report, its type in its meta file. */
function session(cwd: string, agentType: string): { main: string; sub: string } {
  const withCwd = (line: string) => JSON.stringify({ ...(JSON.parse(line) as object), cwd });
  const sub = [
    withCwd(prompt("Read a", { sidechain: true, agentId: "a1b2" })),
    assistant("s1", [call("s1c", "Read", READ)], { sidechain: true, agentId: "a1b2" }),
    result("s1c", "body", { sidechain: true, agentId: "a1b2" }),
  ];
  const main = [
    prompt("go"),
    assistant("m1", [call("agent1", "Agent", { description: "reader", prompt: "Read a", subagent_type: agentType })]),
    result("agent1", "done"),
  ];
  mkdirSync(join(dir.path, "sess-1", "subagents"), { recursive: true });
  dir.file("sess-1/subagents/agent-a1b2.meta.json", JSON.stringify({ agentType, toolUseId: "agent1", spawnDepth: 1 }));
  return { main: dir.file("sess-1.jsonl", jsonl(main)), sub: dir.file("sess-1/subagents/agent-a1b2.jsonl", jsonl(sub)) };
}

/** A project folder whose `.claude/agents/` defines gated-helper, opting in. */
function project(): string {
  const cwd = join(dir.path, "project");
  mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
  writeFileSync(join(cwd, ".claude", "agents", "gated-helper.md"), GATED);
  return cwd;
}

const env = () => ({ HOME: join(dir.path, "home") });

describe("a subagent file's type and folder", () => {
  it("reads the type Claude Code recorded beside the file; none when the meta file is missing, unreadable or names none", () => {
    const { sub } = session("/p", "gated-helper");
    expect(agentTypeOf(sub)).toBe("gated-helper");
    writeFileSync(sub.replace(/\.jsonl$/, ".meta.json"), "{not json");
    expect(agentTypeOf(sub)).toBeUndefined();
    writeFileSync(sub.replace(/\.jsonl$/, ".meta.json"), JSON.stringify({ agentType: 7 }));
    expect(agentTypeOf(sub)).toBeUndefined();
    expect(agentTypeOf(join(dir.path, "nowhere", "agent-x.jsonl"))).toBeUndefined();
  });

  it("reads the folder from the first line that names one; none in a file without, or no file", () => {
    const { sub, main } = session("/work/project", "gated-helper");
    expect(workingFolderOf(sub)).toBe("/work/project");
    expect(workingFolderOf(main)).toBeUndefined();
    expect(workingFolderOf(join(dir.path, "missing.jsonl"))).toBeUndefined();
  });
});

describe("subagentDefinitions", () => {
  it("finds the definition that opts in from the subagent's folder; a built-in type has none; no meta file, no entry", async () => {
    const cwd = project();
    const { sub } = session(cwd, "gated-helper");
    const found = await subagentDefinitions([sub], env());
    expect(found.get(sub)).toMatchObject({ agentType: "gated-helper", definition: { gated: true } });
    expect(found.get(sub)!.definition!.file).toBe(join(cwd, ".claude", "agents", "gated-helper.md"));

    const builtIn = session(cwd, "general-purpose");
    expect((await subagentDefinitions([builtIn.sub], env())).get(builtIn.sub)).toEqual({ agentType: "general-purpose" });
    rmSync(builtIn.sub.replace(/\.jsonl$/, ".meta.json"));
    expect((await subagentDefinitions([builtIn.sub], env())).size).toBe(0);
  });
});

describe("replay gates a subagent its definition opts in", () => {
  it("refuses its call with no report, as the hooks would; observed without the definitions read", async () => {
    const cwd = project();
    const { main, sub } = session(cwd, "gated-helper");
    const agents = await subagentDefinitions([sub], env());
    const decided = (report: ReturnType<typeof replayFiles>) =>
      report.files
        .flatMap((f) => f.scopes)
        .find((s) => s.id === "agent:a1b2")!
        .decided.map((d) => [d.decision, d.rule]);
    expect(decided(replayFiles([main], { agents }))).toEqual([["refused", "no_report"]]);
    expect(decided(replayFiles([main]))).toEqual([["observed", undefined]]);
  });
});
