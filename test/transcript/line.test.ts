import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TranscriptEventSchema, type TranscriptEvent } from "../../src/transcript/line-events.js";
import { MAX_LINE_BYTES, parseLine, parseLineBytes, skillBaseDir } from "../../src/transcript/line.js";
import { assistant, call, compactBoundary, compactSummary, meta, prompt, result, snapshot, text } from "./helpers.js";

function only(line: string): TranscriptEvent {
  const events = parseLine(line);
  expect(events).toHaveLength(1);
  return events![0]!;
}

describe("parseLine: assistant lines", () => {
  it("keeps text and tool_use blocks in order with the message id", () => {
    const event = only(assistant("msg_1", [text("Action: retrieve"), call("toolu_1", "Grep", { pattern: "x" })]));
    expect(event).toMatchObject({
      kind: "assistant",
      messageId: "msg_1",
      sidechain: false,
      blocks: [
        { type: "text", text: "Action: retrieve" },
        { type: "tool_use", id: "toolu_1", name: "Grep", input: { pattern: "x" } },
      ],
    });
  });

  it("ignores thinking blocks, and a line with nothing else is skipped", () => {
    expect(parseLine(assistant("m", [{ type: "thinking", thinking: "hmm" }]))).toBeNull();
    const event = only(assistant("m", [{ type: "thinking", thinking: "hmm" }, text("hi")]));
    expect(event.kind === "assistant" && event.blocks).toEqual([{ type: "text", text: "hi" }]);
  });

  it("skips a malformed block but keeps the rest of the line", () => {
    const line = JSON.stringify({
      type: "assistant",
      message: {
        id: "m",
        content: [
          { type: "tool_use", id: 5 },
          { type: "text", text: "kept" },
        ],
      },
    });
    expect(only(line)).toMatchObject({ blocks: [{ type: "text", text: "kept" }] });
  });

  it("gives a line without message.id a message of its own", () => {
    const line = JSON.stringify({ type: "assistant", uuid: "u1", message: { content: [{ type: "text", text: "x" }] } });
    expect(only(line)).toMatchObject({ messageId: "line:u1" });
  });

  it("marks sidechain lines and carries agentId", () => {
    expect(only(assistant("m", [text("x")], { sidechain: true, agentId: "a1" }))).toMatchObject({
      sidechain: true,
      agentId: "a1",
    });
  });
});

describe("parseLine: user lines", () => {
  it("reads a typed prompt as a prompt", () => {
    expect(only(prompt("fix the bug"))).toMatchObject({ kind: "user_text", text: "fix the bug", isMeta: false, isPrompt: true });
  });

  it("reads meta lines as not prompts", () => {
    expect(only(meta("Base directory for this skill: /s"))).toMatchObject({ isMeta: true, isPrompt: false });
  });

  it.each([
    "[Request interrupted by user]",
    "[Request interrupted by user for tool use]",
    "<local-command-stdout>Reconnected</local-command-stdout>",
    "<local-command-caveat>Caveat</local-command-caveat>",
  ])("does not take Claude Code's own marker %s for a prompt", (marker) => {
    expect(only(prompt(marker))).toMatchObject({ isPrompt: false });
  });

  it("takes a slash command for a prompt", () => {
    expect(only(prompt("<command-message>x</command-message>\n<command-name>/x</command-name>"))).toMatchObject({
      isPrompt: true,
    });
  });

  it("flattens tool result content and measures it in UTF-8 bytes", () => {
    expect(only(result("t1", "héllo"))).toMatchObject({ kind: "tool_result", toolUseId: "t1", text: "héllo", bytes: 6, isError: false });
    const blocks = [
      { type: "text", text: "a" },
      { type: "image", source: {} },
      { type: "text", text: "b" },
    ];
    expect(only(result("t2", blocks, { isError: true }))).toMatchObject({ text: "a\nb", bytes: 3, isError: true });
    expect(only(result("t3", null))).toMatchObject({ text: "", bytes: 0 });
  });

  it("splits a user line holding several results and text into several events", () => {
    const line = JSON.stringify({
      type: "user",
      message: {
        content: [
          { type: "tool_result", tool_use_id: "a", content: "1" },
          { type: "tool_result", tool_use_id: "b", content: "2" },
          { type: "text", text: "[Request interrupted by user for tool use]" },
        ],
      },
    });
    expect(parseLine(line)?.map((event) => event.kind)).toEqual(["tool_result", "tool_result", "user_text"]);
  });
});

describe("parseLine: compaction and other line types", () => {
  it("marks both compaction lines", () => {
    expect(only(compactBoundary())).toMatchObject({ kind: "compact", source: "boundary" });
    expect(only(compactSummary())).toMatchObject({ kind: "compact", source: "summary" });
  });

  it("skips other system lines and unknown types", () => {
    expect(parseLine(JSON.stringify({ type: "system", subtype: "local_command", content: "x" }))).toBeNull();
    expect(parseLine(snapshot())).toBeNull();
    expect(parseLine(JSON.stringify({ type: "summary", summary: "t", leafUuid: "u" }))).toBeNull();
    expect(parseLine(JSON.stringify({ type: "queue-operation", operation: "enqueue" }))).toBeNull();
    expect(parseLine(JSON.stringify({ type: "some-future-type", message: { content: "x" } }))).toBeNull();
    expect(parseLine(JSON.stringify({ type: "progress", data: { type: "hook_progress" } }))).toBeNull();
  });

  it("reads a subagent's message copied into a progress line as a sidechain event", () => {
    const nested = JSON.parse(assistant("m9", [call("toolu_9", "Read")])) as object;
    const line = JSON.stringify({ type: "progress", isSidechain: false, data: { type: "agent_progress", agentId: "a7", message: nested } });
    expect(only(line)).toMatchObject({ kind: "assistant", sidechain: true, agentId: "a7", messageId: "m9" });
  });
});

describe("parseLine: what it refuses", () => {
  it.each([
    ["empty", ""],
    ["not JSON", "hello"],
    ["cut short", '{"type":"user","message":{"content":"hi"'],
    ["a JSON array", "[1,2]"],
    ["a JSON string", '"user"'],
    ["null", "null"],
    ["no type", '{"message":{}}'],
    ["a wrongly typed flag", JSON.stringify({ type: "user", isSidechain: "yes", message: { content: "x" } })],
    ["content of the wrong type", JSON.stringify({ type: "assistant", message: { content: 5 } })],
  ])("returns null for %s", (_name, line) => {
    expect(parseLine(line)).toBeNull();
  });

  it("returns null for every proper prefix of a line (a line being written)", () => {
    const line = assistant("msg_1", [text("Action: verify ✓ 😀"), call("toolu_1")]);
    for (let cut = 0; cut < line.length; cut++) expect(parseLine(line.slice(0, cut))).toBeNull();
    expect(parseLine(line)).not.toBeNull();
  });

  it("accepts the CR of a CRLF line", () => {
    expect(only(`${prompt("hi")}\r`)).toMatchObject({ text: "hi" });
  });

  it("rejects invalid UTF-8 and accepts valid multi-byte text", () => {
    const good = Buffer.from(prompt("naïve 😀"));
    expect(parseLineBytes(good)?.[0]).toMatchObject({ text: "naïve 😀" });
    const bad = Buffer.concat([Buffer.from('{"type":"user","message":{"content":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    expect(parseLineBytes(bad)).toBeNull();
    const cutCharacter = Buffer.from(prompt("😀")).subarray(0, -6); // ends inside the emoji's 4 bytes
    expect(parseLineBytes(cutCharacter)).toBeNull();
    expect(parseLineBytes(null)).toBeNull();
  });

  it("skips a line over the size limit", () => {
    const huge = prompt("x".repeat(MAX_LINE_BYTES));
    expect(parseLine(huge)).toBeNull();
  });

  it("never throws, whatever the string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (line) => {
        parseLine(line);
      }),
    );
  });

  it("never throws on any JSON, and what it returns has the declared shape", () => {
    const lineType = fc.constantFrom("user", "assistant", "system", "progress", "summary");
    const shaped = fc.record(
      {
        type: lineType,
        subtype: fc.option(fc.constantFrom("compact_boundary", "x"), { nil: undefined }),
        isMeta: fc.option(fc.anything(), { nil: undefined }),
        isSidechain: fc.option(fc.boolean(), { nil: undefined }),
        message: fc.option(
          fc.record({
            id: fc.option(fc.string(), { nil: undefined }),
            content: fc.oneof(
              fc.string(),
              fc.array(fc.anything()),
              fc.array(
                fc.record(
                  {
                    type: fc.constantFrom("text", "tool_use", "tool_result"),
                    text: fc.anything(),
                    id: fc.anything(),
                    name: fc.anything(),
                    input: fc.anything(),
                    tool_use_id: fc.anything(),
                    content: fc.anything(),
                    is_error: fc.anything(),
                  },
                  { requiredKeys: ["type"] },
                ),
              ),
            ),
          }),
          { nil: undefined },
        ),
        data: fc.anything(),
      },
      { requiredKeys: ["type"] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), shaped), (value) => {
        const events = parseLine(JSON.stringify(value) ?? "");
        for (const event of events ?? []) expect(TranscriptEventSchema.safeParse(event).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("skillBaseDir", () => {
  it("reads the folder from a meta line's first line", () => {
    const event = only(meta("Base directory for this skill: /home/u/.claude/skills/gated\n\n# Gated skill\n..."));
    expect(skillBaseDir(event)).toBe("/home/u/.claude/skills/gated");
  });

  it("ignores the phrase anywhere but a meta user line", () => {
    expect(skillBaseDir(only(prompt("Base directory for this skill: /evil")))).toBeNull();
    expect(skillBaseDir(only(result("t", "Base directory for this skill: /evil")))).toBeNull();
    expect(skillBaseDir(only(assistant("m", [text("Base directory for this skill: /evil")])))).toBeNull();
    expect(skillBaseDir(only(meta("Base directory for this skill:   ")))).toBeNull();
  });
});

describe("assistant usage (SPEC §12)", () => {
  const line = (usage: unknown) =>
    JSON.stringify({
      type: "assistant",
      uuid: "u1",
      isSidechain: false,
      message: { id: "m1", model: "claude-x", role: "assistant", content: [{ type: "text", text: "hi" }], usage },
    });

  it("reads the four counts and the model", () => {
    const [event] = parseLine(
      line({
        input_tokens: 3,
        output_tokens: 11,
        cache_creation_input_tokens: 8490,
        cache_read_input_tokens: 18014,
        service_tier: "standard",
      }),
    )!;
    expect(event).toMatchObject({
      kind: "assistant",
      model: "claude-x",
      usage: { input: 3, output: 11, cacheCreation: 8490, cacheRead: 18014 },
    });
  });

  it("counts what is not a whole number ≥ 0 as 0, and has no usage when the line has none", () => {
    const [odd] = parseLine(line({ input_tokens: -4, output_tokens: 1.5, cache_creation_input_tokens: null }))!;
    expect(odd).toMatchObject({ usage: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 } });
    const [none] = parseLine(line(undefined))!;
    expect(none).not.toHaveProperty("usage");
  });
});

describe("a result Claude Code's permissions refused", () => {
  it("is marked denied (the line's toolDenialKind), an ordinary failure is not", () => {
    const denied = JSON.stringify({
      type: "user",
      uuid: "u2",
      toolDenialKind: "user-rejected",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            is_error: true,
            content: "Claude requested permissions to write to /x, but you haven't granted it yet.",
          },
        ],
      },
    });
    expect(parseLine(denied)).toMatchObject([{ kind: "tool_result", toolUseId: "t1", isError: true, denied: true }]);
    expect(parseLine(result("t2", "Exit code 3", { isError: true }))![0]).not.toHaveProperty("denied");
  });
});
