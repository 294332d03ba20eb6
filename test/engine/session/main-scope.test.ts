// The main conversation run as an agent definition (src/engine/session/main-scope.ts): gated by it as a subagent of that type is.
import { describe, expect, it } from "vitest";
import { manualSource } from "../../../src/engine/gate-policy.js";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import { newSession } from "../../../src/engine/session/state.js";
import { gateOf } from "../../../src/engine/session/views.js";

const definition = { ...manualSource(), file: "/p/.claude/agents/reviewer.md" };
const typed = (key: string) =>
  [
    { kind: "prompt_vouched", key, own: false, slash: false },
    { kind: "prompt_line", key, lineKind: "typed" },
  ] as const;

describe("main_agent", () => {
  it("a definition that opts in gates the main scope from its first call, and in every later task", () => {
    const s = reduceAll(newSession("s"), [{ kind: "main_agent", agentType: "reviewer", definition }, ...typed("p1")]).session;
    expect(s.main.agentType).toBe("reviewer");
    expect(gateOf(s, "main")?.file).toBe(definition.file);
    const later = reduceAll(s, [...typed("p2")]).session;
    expect(later.main.task).toBe(s.main.task + 1);
    expect(gateOf(later, "main")?.file).toBe(definition.file);
  });

  it("one that does not opt in gates nothing; a later type replaces the earlier one, as Claude Code runs it", () => {
    const plain = reduceAll(newSession("s"), [{ kind: "main_agent", agentType: "plain" }]).session;
    expect(plain.main.agentType).toBe("plain");
    expect(gateOf(plain, "main")).toBeUndefined();
    const gated = reduceAll(plain, [{ kind: "main_agent", agentType: "reviewer", definition }]).session;
    expect(gateOf(gated, "main")?.file).toBe(definition.file);
    const back = reduceAll(gated, [{ kind: "main_agent", agentType: "plain" }]).session;
    expect(back.main.definition).toBeUndefined();
    expect(gateOf(back, "main")).toBeUndefined();
  });

  it("does not touch the subagents", () => {
    const s = reduceAll(newSession("s"), [
      { kind: "subagent_started", agentId: "a" },
      { kind: "main_agent", agentType: "reviewer", definition },
    ]).session;
    expect(gateOf(s, "agent:a")).toBeUndefined();
  });
});
