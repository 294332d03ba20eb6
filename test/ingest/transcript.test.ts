// Transcript lines → the session machine's events (src/ingest/transcript.ts).
import { describe, expect, it } from "vitest";
import { ingestEvent, ingestEvents, promptKeysIn } from "../../src/ingest/transcript.js";
import { promptKey } from "../../src/ingest/prompts.js";
import { parseLine } from "../../src/transcript/line.js";

const one = (line: object) => parseLine(JSON.stringify({ uuid: "u", timestamp: "2026-12-01T10:00:00Z", ...line }))!;

describe("ingestEvent", () => {
  it("a main scope's typed line is a prompt line under its key; a subagent's user lines are none", () => {
    const [typed] = one({ type: "user", promptId: "p1", message: { role: "user", content: "fix" } });
    expect(ingestEvent(typed!, "main")).toEqual([{ kind: "prompt_line", key: promptKey("p1"), lineKind: "typed" }]);
    expect(ingestEvent(typed!, "agent:a")).toEqual([]);
  });

  it("a notification is a prompt line and, when it names the job, the job's end", () => {
    const [n] = one({
      type: "user",
      promptId: "p2",
      origin: { kind: "task-notification" },
      message: { role: "user", content: "<task-notification>\n<task-id>bg1</task-id>\n<status>completed</status>\n</task-notification>" },
    });
    expect(ingestEvent(n!, "main")).toEqual([
      { kind: "prompt_line", key: promptKey("p2"), lineKind: "notification" },
      { kind: "scope", scope: "main", event: { kind: "background_ended", jobId: "bg1" } },
    ]);
  });

  it("a meta line is no prompt line; a skill's base directory comes out to be read", () => {
    const [m] = one({
      type: "user",
      isMeta: true,
      message: { role: "user", content: [{ type: "text", text: "Base directory for this skill: /p/.claude/skills/x\n\nBody" }] },
    });
    expect(ingestEvent(m!, "main")).toEqual([{ kind: "skill_seen", scope: "main", folder: "/p/.claude/skills/x" }]);
  });

  it("a queued notification (2.1.39) ends its job and is no prompt line", () => {
    const [q] = one({
      type: "queue-operation",
      operation: "enqueue",
      content: "<task-notification><task-id>bg2</task-id><status>killed</status></task-notification>",
    });
    expect(ingestEvent(q!, "main")).toEqual([{ kind: "scope", scope: "main", event: { kind: "background_ended", jobId: "bg2" } }]);
    expect(parseLine(JSON.stringify({ type: "queue-operation", operation: "enqueue", content: "/mcp" }))).toBeNull();
    expect(parseLine(JSON.stringify({ type: "queue-operation", operation: "remove", content: "<task-notification>" }))).toBeNull();
  });

  it("results, usage and compactions go to the scope", () => {
    const [r] = one({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] } });
    expect(ingestEvent(r!, "agent:a")).toMatchObject([
      { kind: "scope", scope: "agent:a", event: { kind: "result", toolUseId: "t1", failed: false, bytes: 2 } },
    ]);
    const [u] = one({
      type: "assistant",
      message: {
        id: "m1",
        model: "claude-opus-4-5",
        content: [{ type: "thinking", thinking: "…" }],
        usage: { input_tokens: 3, output_tokens: 1 },
      },
    });
    expect(ingestEvent(u!, "main")).toEqual([
      {
        kind: "scope",
        scope: "main",
        event: {
          kind: "usage",
          messageId: "m1",
          model: "claude-opus-4-5",
          tokens: { input: 3, output: 1, cacheCreation: 0, cacheRead: 0 },
          toolUseIds: [],
        },
      },
    ]);
    const [c] = one({ type: "system", subtype: "compact_boundary" });
    expect(ingestEvent(c!, "main")).toEqual([{ kind: "scope", scope: "main", event: { kind: "compact" } }]);
  });

  it("ingestEvents keeps the order; promptKeysIn lists the user lines' keys, meta ones left out", () => {
    const events = [
      ...one({ type: "user", promptId: "a", message: { role: "user", content: "one" } }),
      ...one({ type: "user", isMeta: true, promptId: "b", message: { role: "user", content: [{ type: "text", text: "meta" }] } }),
      ...one({ type: "user", message: { role: "user", content: "no id" } }),
    ];
    expect(ingestEvents(events, "main").map((e) => e.kind)).toEqual(["prompt_line", "prompt_line"]);
    expect(promptKeysIn(events)).toEqual([promptKey("a"), ""]);
  });

  it("promptKeysIn: no key for a line that is not a user's (an assistant message, a compaction)", () => {
    const others = [
      ...one({
        type: "assistant",
        message: { id: "m1", role: "assistant", model: "claude-opus-4-5", content: [{ type: "text", text: "hi" }] },
      }),
      ...one({ type: "system", subtype: "compact_boundary", content: "Conversation compacted" }),
    ];
    expect(others.length).toBeGreaterThan(0);
    expect(promptKeysIn(others)).toEqual([]);
  });
});
