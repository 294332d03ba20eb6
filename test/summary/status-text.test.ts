// `/utility status` on caps per subagent (SPEC §16): what each subagent may
// spend, each one's own spend against its caps, and which hit one.
import { describe, expect, it } from "vitest";
import { reduceAll } from "../../src/engine/session/reduce.js";
import { newSession, type SessionState } from "../../src/engine/session/state.js";
import type { SessionEvent } from "../../src/engine/session/events.js";
import { renderStatus } from "../../src/summary/status-text.js";
import { parseUserConfig } from "../../src/optin/user-config.js";

const usage = (agentId: string, id: string, input: number): SessionEvent => ({
  kind: "scope",
  scope: `agent:${agentId}`,
  event: {
    kind: "usage",
    messageId: id,
    model: "claude-opus-5-5",
    tokens: { input, output: 0, cacheCreation: 0, cacheRead: 0 },
    toolUseIds: [],
  },
});

function twoAgents(): SessionState {
  return reduceAll(newSession("s"), [
    { kind: "scope", scope: "main", event: { kind: "prompt", typed: true } },
    { kind: "subagent_started", agentId: "a1" },
    { kind: "definition_loaded", agentId: "a1", agentType: "Explore" },
    { kind: "subagent_started", agentId: "b2" },
    usage("a1", "m1", 4000),
    usage("b2", "m2", 1000),
  ]).session;
}

const status = (state: SessionState, options: Record<string, string>) =>
  renderStatus("s", { dir: "/d", state, records: [], userConfig: parseUserConfig(options) });

describe("caps per subagent in /utility status", () => {
  it("names the subagents past their cap, says what each may spend and where each one stands", () => {
    const text = status(twoAgents(), { CLAUDE_PLUGIN_OPTION_AGENT_TOKEN_BUDGET: "3000", CLAUDE_PLUGIN_OPTION_AGENT_MAX_TOOL_CALLS: "5" });
    expect(text).toContain("subagents past their own cap: a1 (Explore)\n");
    expect(text).toContain("\n  caps per subagent: tokens 3,000, tool calls 5\n");
    expect(text).toContain("subagent a1 (Explore): ");
    expect(text).toContain(
      "  its own caps: tokens 4,000 of 3,000 (133%, SPENT: its further tool calls are refused); tool calls 0 of 5 (0%)\n",
    );
    expect(text).toContain("  its own caps: tokens 1,000 of 3,000 (33%); tool calls 0 of 5 (0%)\n");
  });

  it("says nothing of caps when none is set", () => {
    const text = status(twoAgents(), {});
    expect(text).not.toContain("cap");
  });

  it("shows the whole session's spend against the session budgets, labelled (issue 34: every budget in force is shown)", () => {
    const text = status(twoAgents(), {
      CLAUDE_PLUGIN_OPTION_SESSION_TOKEN_BUDGET: "200",
      CLAUDE_PLUGIN_OPTION_SESSION_MAX_TOOL_CALLS: "9",
    });
    expect(text).toContain(
      "\nsession, every task and subagent: 5,000 tokens, about $0.03, 0 tool calls; tokens 5,000 of 200 (2500%, SPENT: further tool calls are refused); tool calls 0 of 9 (0%)\n",
    );
    expect(status(twoAgents(), {})).not.toContain("session, every task");
    expect(text).toContain("  spent by this scope: 0 tokens");
    // A subagent is named by the task that launched it, never by a count of its own (issue 34).
    expect(text).toContain("subagent a1 (Explore): in task 2, step 0, 0 refused; not gated");
  });

  it("shows a task's tool calls against max_tool_calls", () => {
    expect(status(twoAgents(), { CLAUDE_PLUGIN_OPTION_MAX_TOOL_CALLS: "40" })).toContain("tool calls 0 of 40 (0%)");
  });
});
