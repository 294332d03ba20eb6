// The line reader checks a line's fields without copying them (src/transcript/conforms.ts);
// zod's own parse is the reference. Both must give the same events, line for line.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { writeProjectsFolder } from "../../scripts/bench/projects-folder.mjs";
import { conforms, parsedValue } from "../../src/transcript/conforms.js";
import { MAX_LINE_BYTES, parseLine, parseLineBytes } from "../../src/transcript/line.js";
import { RawLineSchema } from "../../src/transcript/raw-line.js";
import { FIXTURES_DIR } from "./helpers.js";

/** The fast reader (the default) and the reference give the same answer for this line. */
function sameEvents(line: string): void {
  expect(parseLine(line)).toStrictEqual(parseLine(line, parsedValue));
  const bytes = Buffer.from(line, "utf8");
  expect(parseLineBytes(bytes)).toStrictEqual(parseLineBytes(bytes, parsedValue));
}

function linesOf(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

const base = {
  type: "user",
  uuid: "u1",
  timestamp: "2026-11-04T11:23:04.366Z",
  isSidechain: false,
  promptId: "p1",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "done", is_error: false }] },
};
const assistantLine = {
  type: "assistant",
  uuid: "a1",
  message: {
    id: "msg_1",
    model: "claude-opus-4-5",
    content: [
      { type: "text", text: "Action: read" },
      { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/a" } },
    ],
    usage: { input_tokens: 3, output_tokens: 5, cache_creation_input_tokens: 7, cache_read_input_tokens: 11 },
  },
};
const progressLine = { type: "progress", uuid: "p1", data: { type: "agent_progress", agentId: "abc", message: assistantLine } };

/** Each JSON kind, for a field that expects another. */
const WRONG = [1, -0.5, "s", "", true, false, null, [], ["x"], {}, { type: "text" }];

describe("the fast reader gives zod's events", () => {
  it("on every line of the fixture transcripts", () => {
    const dir = FIXTURES_DIR;
    const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(3);
    let lines = 0;
    for (const name of files)
      for (const line of linesOf(join(dir, name))) {
        sameEvents(line);
        lines++;
      }
    expect(lines).toBeGreaterThan(500);
  });

  it("on a generated projects folder (subagents, compactions, background jobs, rejected calls)", () => {
    const root = mkdtempSync(join(tmpdir(), "conforms-"));
    try {
      writeProjectsFolder(root, { bytes: 1.5e6, seed: 7 });
      const files = readdirSync(root, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith(".jsonl"));
      let events = 0;
      for (const name of files)
        for (const line of linesOf(join(root, name))) {
          sameEvents(line);
          events += parseLine(line)?.length ?? 0;
        }
      expect(events).toBeGreaterThan(200);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("when any field the schema reads holds the wrong kind of value", () => {
    const lines = [base, assistantLine, progressLine, { type: "system", subtype: "compact_boundary" }];
    const paths: Array<{ line: object; set: (line: Record<string, unknown>, value: unknown) => void }> = [];
    for (const line of lines) {
      for (const key of [...Object.keys(RawLineSchema._zod.def.shape), "unknownKey"])
        paths.push({ line, set: (l, v) => void (l[key] = v) });
      if ("message" in line)
        for (const key of ["id", "model", "role", "content", "usage", "extra"])
          paths.push({ line, set: (l, v) => void ((l.message as Record<string, unknown>)[key] = v) });
    }
    const blockKeys = ["type", "text", "id", "name", "input", "tool_use_id", "content", "is_error"];
    for (const key of blockKeys) {
      paths.push({ line: base, set: (l, v) => void ((l.message as { content: Array<Record<string, unknown>> }).content[0]![key] = v) });
      paths.push({
        line: assistantLine,
        set: (l, v) => void ((l.message as { content: Array<Record<string, unknown>> }).content[1]![key] = v),
      });
    }
    for (const key of ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"])
      paths.push({ line: assistantLine, set: (l, v) => void ((l.message as { usage: Record<string, unknown> }).usage[key] = v) });
    for (const key of ["type", "agentId", "message"])
      paths.push({ line: progressLine, set: (l, v) => void ((l.data as Record<string, unknown>)[key] = v) });
    paths.push({ line: base, set: (l, v) => void (l.origin = { kind: v }) });
    for (const { line, set } of paths)
      for (const value of WRONG) {
        const copy = structuredClone(line) as Record<string, unknown>;
        set(copy, value);
        sameEvents(JSON.stringify(copy));
      }
  });

  it("on numbers JSON.parse reads as Infinity, which zod refuses", () => {
    const line = JSON.stringify(assistantLine).replace('"output_tokens":5', '"output_tokens":1e999');
    expect(line).toContain("1e999");
    sameEvents(line);
    // The usage is dropped, not counted as 0: the line's events differ from a line with no such number.
    expect(parseLine(line)?.[0]).not.toHaveProperty("usage");
  });

  it("on torn lines, every cut of each kind of line", () => {
    for (const line of [base, assistantLine, progressLine].map((l) => JSON.stringify(l)))
      for (let cut = 0; cut <= line.length; cut++) sameEvents(line.slice(0, cut));
  });

  it("on unknown types, odd shapes and keys that name Object.prototype", () => {
    for (const line of [
      '{"type":"some-future-type","message":{"content":"x"}}',
      "[]",
      "null",
      '"user"',
      "42",
      '{"type":"user","__proto__":{"isMeta":"yes"},"message":{"content":"hi"}}',
      '{"type":"user","constructor":1,"toString":2,"message":{"content":"hi","__proto__":[]}}',
      '{"type":"user","type":"assistant","message":{"id":"m","content":[{"type":"text","text":"dup key"}]}}',
      '{"type":"assistant","message":{"content":[null,1,"s",[],{"type":"thinking","thinking":"t"},{"type":"text","text":"t"}]}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":3}]}]}}',
      '{"type":"queue-operation","operation":"enqueue","content":"<task-notification>x"}',
      '{"type":"queue-operation","operation":"enqueue","content":["<task-notification>x"]}',
      '{"type":"progress","data":{"type":"agent_progress","message":{"type":"progress","data":{"type":"agent_progress","message":{"type":"user","message":{"content":"deep"}}}}}}',
    ])
      sameEvents(line);
  });

  it("on invalid UTF-8 and on lines too long to read", () => {
    const good = Buffer.from(JSON.stringify({ ...base, message: { content: "naïve 😀" } }), "utf8");
    for (let cut = 0; cut <= good.length; cut++) {
      const bytes = good.subarray(0, cut);
      expect(parseLineBytes(bytes)).toStrictEqual(parseLineBytes(bytes, parsedValue));
    }
    const bad = Buffer.concat([good.subarray(0, 40), Buffer.from([0xff, 0xfe]), good.subarray(40)]);
    expect(parseLineBytes(bad)).toBeNull();
    expect(parseLineBytes(bad, parsedValue)).toBeNull();
    const huge = JSON.stringify({
      ...base,
      message: { content: [{ type: "tool_result", tool_use_id: "t", content: "x".repeat(MAX_LINE_BYTES) }] },
    });
    expect(parseLine(huge)).toBeNull();
    expect(parseLine(huge, parsedValue)).toBeNull();
    const large = JSON.stringify({ ...base, message: { content: [{ type: "tool_result", tool_use_id: "t", content: "x".repeat(4e6) }] } });
    sameEvents(large);
    expect(parseLine(large)?.[0]).toMatchObject({ kind: "tool_result", bytes: 4e6 });
  });

  it("on generated lines built from the fields the reader looks at", () => {
    const value = fc.oneof(
      fc.constantFrom(null, true, false, 0, 1, -1, 2.5, "", "x", "text", "tool_use", "tool_result", "user", "assistant"),
      fc.string(),
      fc.constant([]),
      fc.constant({}),
    );
    const block = fc.record(
      {
        type: fc.oneof(fc.constantFrom("text", "tool_use", "tool_result", "thinking"), value),
        text: value,
        id: value,
        name: value,
        input: fc.oneof(value, fc.dictionary(fc.string(), value)),
        tool_use_id: value,
        content: fc.oneof(value, fc.array(fc.record({ type: fc.oneof(fc.constant("text"), value), text: value }, { requiredKeys: [] }))),
        is_error: value,
      },
      { requiredKeys: [] },
    );
    const usage = fc.oneof(
      value,
      fc.record(
        { input_tokens: value, output_tokens: value, cache_creation_input_tokens: value, cache_read_input_tokens: value },
        { requiredKeys: [] },
      ),
    );
    const message = fc.oneof(
      value,
      fc.record(
        { id: value, model: value, role: value, content: fc.oneof(value, fc.array(fc.oneof(block, value))), usage },
        { requiredKeys: [] },
      ),
    );
    const line = fc.record(
      {
        type: fc.oneof(fc.constantFrom("user", "assistant", "system", "progress", "queue-operation"), value),
        subtype: fc.oneof(fc.constant("compact_boundary"), value),
        uuid: value,
        isSidechain: value,
        isMeta: value,
        isCompactSummary: value,
        agentId: value,
        timestamp: value,
        message,
        toolDenialKind: value,
        promptId: value,
        operation: fc.oneof(fc.constant("enqueue"), value),
        content: fc.oneof(fc.constant("<task-notification>done"), value),
        origin: fc.oneof(value, fc.record({ kind: value }, { requiredKeys: [] })),
        promptSource: value,
        turnOrigin: value,
        wakeupSource: value,
      },
      { requiredKeys: [] },
    );
    const progress = fc.record({
      type: fc.constant("progress"),
      data: fc.record({ type: fc.constant("agent_progress"), agentId: value, message: line }, { requiredKeys: [] }),
    });
    fc.assert(
      fc.property(fc.oneof(line, progress), (json) => {
        sameEvents(JSON.stringify(json));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("conforms", () => {
  it("answers as safeParse on any JSON value, for the line schema", () => {
    const check = conforms(RawLineSchema);
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        expect(check(json)).toBe(RawLineSchema.safeParse(json).success);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses schemas it cannot answer for exactly, rather than guess", () => {
    expect(() => conforms(z.string().check(z.minLength(1)))).toThrow(/checks/);
    expect(() => conforms(z.object({ a: z.string() }))).toThrow(/looseObject/);
    expect(() => conforms(z.strictObject({ a: z.string() }))).toThrow(/looseObject/);
    expect(() =>
      conforms(
        z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
      ),
    ).toThrow(/not supported/);
  });
});
