// Replay counts a session with a compaction and task notifications as the hooks count it (issue 34, item 6):
// /compact's own line starts no task, a notification is no prompt, and a compaction's subagent file is no subagent.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayFiles } from "../../src/replay/files.js";
import { ROOT } from "../support/paths.js";

const SESSION = join(ROOT, "test", "fixtures", "compaction", "ddd8f4a3-1b69-467c-b3ec-8bc9c485db03.jsonl");

describe("a recorded session with a subagent, notifications and /compact, replayed", () => {
  const report = replayFiles([SESSION]);
  const scopes = report.files.flatMap((file) => file.scopes);
  const main = scopes.find((scope) => scope.scope === "main")!;

  it("reads the compaction files beside the session, and lists none of them as a scope", () => {
    expect(report.files.map((file) => file.path.split("/").at(-1))).toEqual([
      "ddd8f4a3-1b69-467c-b3ec-8bc9c485db03.jsonl",
      "agent-a7e1d2c3b4a5f6e70.jsonl",
      "agent-a91b84a37cd47a62e.jsonl",
      "agent-acompact-5f0c2a9e41b7d3c8.jsonl",
    ]);
    expect(scopes.filter((scope) => scope.scope !== "main").map((scope) => scope.id)).toEqual(["agent:a91b84a37cd47a62e"]);
    expect(report.totals.scopes).toBe(2);
  });

  it("two tasks: the notifications and /compact start none", () => {
    expect(main.decided.map((call) => [call.tool, call.task])).toEqual([
      ["Bash", 1],
      ["Agent", 1],
      ["Bash", 2],
    ]);
  });

  it("the one real subagent counts toward task 1, the first of its agents", () => {
    const agent = scopes.find((scope) => scope.id === "agent:a91b84a37cd47a62e")!;
    expect([agent.rootTask, agent.ordinal]).toEqual([1, 1]);
  });

  it("a compaction's spend is no subagent's (only the session's and its one agent's messages count)", () => {
    expect(report.totals.spend.messages).toBe(scopes.reduce((sum, scope) => sum + (scope.messages ?? 0), 0));
    expect(report.totals.spend.byModel["claude-sonnet-4-5"]).toBeUndefined();
  });
});
