// Synthetic Claude Code 2.1 transcripts for the benchmark and the perf tests:
// the line shapes Claude Code writes (one line per content block sharing
// message.id, progress and queue lines, tool results of varied size), grown
// to a target size, ending with an assistant message that holds an action
// report and the call the hook is asked about.
import { appendFileSync, writeFileSync } from "node:fs";

export const REPORT = "Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: go";

/** A deterministic pseudo-random generator (mulberry32), so every run writes the same bytes. */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "the test fails because the fixture path is resolved relative to the working folder and not the module so the loader reads an empty file and returns undefined which the parser then rejects".split(
    " ",
  );

export class TranscriptWriter {
  constructor({ sessionId = "bench", cwd = "/tmp/bench-project", seed = 7 } = {}) {
    this.sessionId = sessionId;
    this.cwd = cwd;
    this.random = prng(seed);
    this.counter = 0;
    this.parent = null;
    this.clock = Date.UTC(2026, 1, 10, 22, 0, 0);
  }

  id(prefix) {
    this.counter += 1;
    return `${prefix}${this.counter.toString(16).padStart(12, "0")}`;
  }

  uuid() {
    const hex = this.id("").padStart(32, "0");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  words(n) {
    const out = [];
    for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(this.random() * WORDS.length)]);
    return out.join(" ");
  }

  base(type, extra = {}) {
    this.clock += 700 + Math.floor(this.random() * 4000);
    const uuid = this.uuid();
    const line = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: "2.1.38",
      gitBranch: "main",
      type,
      ...extra,
      uuid,
      timestamp: new Date(this.clock).toISOString(),
    };
    this.parent = uuid;
    return line;
  }

  prompt(text) {
    return [this.base("user", { message: { role: "user", content: text }, permissionMode: "default" })];
  }

  skillActivation(folder) {
    return [
      this.base("user", {
        isMeta: true,
        message: {
          role: "user",
          content: [{ type: "text", text: `Base directory for this skill: ${folder}\n\n# Skill body\n\n${this.words(120)}\n` }],
        },
      }),
    ];
  }

  /** One assistant message: text blocks then tool calls, one line per block (2.1 shape). */
  assistant(texts, calls) {
    const messageId = this.id("msg_01");
    const requestId = this.id("req_011");
    const usage = {
      input_tokens: 3,
      cache_creation_input_tokens: 208,
      cache_read_input_tokens: 25798,
      output_tokens: 27,
      service_tier: "standard",
    };
    const lines = [];
    const blocks = [
      ...texts.map((text) => ({ type: "text", text })),
      ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input, caller: { type: "direct" } })),
    ];
    blocks.forEach((block, index) => {
      lines.push(
        this.base("assistant", {
          message: {
            model: "claude-opus-4-6",
            id: messageId,
            type: "message",
            role: "assistant",
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
          requestId,
          apiBlockIndex: index,
        }),
      );
    });
    return lines;
  }

  hookProgress(toolUseId, tool) {
    return [
      this.base("progress", {
        data: {
          type: "hook_progress",
          hookEvent: "PreToolUse",
          hookName: `PreToolUse:${tool}`,
          command: "node ${CLAUDE_PLUGIN_ROOT}/dist/hooks/pre-tool-use.js",
        },
        toolUseID: toolUseId,
        parentToolUseID: toolUseId,
      }),
    ];
  }

  toolResult(toolUseId, text) {
    return [
      this.base("user", {
        message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content: text, is_error: false }] },
        toolUseResult: { stdout: text.slice(0, 2000), stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
      }),
      { type: "queue-operation", operation: "remove", timestamp: new Date(this.clock).toISOString(), sessionId: this.sessionId },
    ];
  }

  /** A past step: a short report, a call, its hook's progress line, and a result of 0.5–24 KB (now and then 120 KB), at most `room` bytes. */
  pastStep(room = Infinity) {
    const toolUseId = this.id("toolu_01");
    const roll = this.random();
    const call =
      roll < 0.4
        ? { name: "Read", input: { file_path: `${this.cwd}/src/module-${this.counter}.ts` } }
        : roll < 0.7
          ? { name: "Grep", input: { pattern: this.words(2), path: `${this.cwd}/src` } }
          : { name: "Bash", input: { command: `npm test -- --run case-${this.counter}`, description: this.words(4) } };
    const size = Math.max(200, Math.min(room - 3_000, this.random() < 0.03 ? 120_000 : 500 + Math.floor(this.random() * 24_000)));
    const body = [];
    let length = 0;
    while (length < size) {
      const row = `${String(body.length + 1).padStart(5)}\t${this.words(12)}`;
      body.push(row);
      length += row.length + 1;
    }
    return [
      ...this.assistant([`${REPORT.slice(0, REPORT.lastIndexOf("go"))}${this.words(10)}`], [{ id: toolUseId, ...call }]),
      ...this.hookProgress(toolUseId, call.name),
      ...this.toolResult(toolUseId, body.join("\n")),
    ];
  }
}

const encode = (lines) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

/**
 * Writes a transcript of about `bytes` bytes to `file`:
 *   prompt, (skill activation when `skillFolder`), past steps, and a last
 *   step `prev` whose call has not finished (the file ends there); its
 *   message has no report when `prevReport` is false.
 * Returns `finish(ids)`, which appends prev's result and one message with the
 * report and a Bash call per id (what the measured hook is asked about).
 */
export function writeTranscript(file, bytes, { skillFolder, sessionId = "bench", seed = 7, prevReport = true } = {}) {
  const w = new TranscriptWriter({ sessionId, seed });
  let text = encode([
    ...w.prompt("Find out why the parser test fails and tell me the cause."),
    ...(skillFolder ? w.skillActivation(skillFolder) : []),
  ]);
  writeFileSync(file, text);
  let size = Buffer.byteLength(text);
  let batch = "";
  while (size < bytes - 4_000) {
    const step = encode(w.pastStep(bytes - 4_000 - size));
    batch += step;
    size += Buffer.byteLength(step);
    if (batch.length > 1_000_000) {
      appendFileSync(file, batch);
      batch = "";
    }
  }
  const prevId = "toolu_bench_prev";
  batch += encode([
    ...w.assistant(prevReport ? [REPORT] : [], [
      { id: prevId, name: "Bash", input: { command: "git status --short", description: "state of the tree" } },
    ]),
  ]);
  appendFileSync(file, batch);
  return {
    prevId,
    /** Appends prev's result and the measured message; returns the bytes appended. */
    finish(ids) {
      const tail = encode([
        ...w.hookProgress(prevId, "Bash"),
        ...w.toolResult(prevId, " M src/parser.ts\n?? test/fixtures/new.json"),
        ...w.assistant(
          [REPORT],
          ids.map((id, i) => ({
            id,
            name: "Bash",
            input: { command: `npm test -- --run parser-${i}`, description: "run the failing test" },
          })),
        ),
      ]);
      appendFileSync(file, tail);
      return Buffer.byteLength(tail);
    },
  };
}
