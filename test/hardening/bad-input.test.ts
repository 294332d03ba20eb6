/**
 * SPEC §10, bad hook input: every hook, run as Claude Code runs it (a served
 * event through a hook server process, SessionEnd as its command entry), is
 * fed input Claude Code would never send (and some it might: huge, with a
 * transcript that is missing or not a file). A command hook is fed bytes; the
 * server is sent the fields as JSON values of any type, as a hook that is not
 * Claude Code's own may send them. Each answers with at most one line of
 * trouble (a command hook's stderr, the server's error log) and no stack
 * trace; the state and the log stay whole and lose nothing; input that is
 * valid gets the normal behaviour, and a transcript the hooks cannot read is
 * said so (issue 18).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { processContext } from "../../src/hooks/context.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import {
  ENTRIES,
  expectDataWhole,
  expectOneLineStderr,
  expectValidOutput,
  hookInput,
  jsonl,
  line,
  logRecords,
  promptIdOf,
  readState,
  isServed,
  runEntry,
  sandbox,
  use,
  type EntryFile,
  type Sandbox,
} from "./support.js";

const SESSION = "5c505ef3-1111-4222-8333-444455556666";
const AGENT = "ae5fab07137205403";

/**
 * A session with a task, two steps in the main scope and one in a subagent,
 * written by the real handlers; each call's line is written before its
 * PreToolUse and its result line after (no hook runs after a call: the
 * scope's next hook reads the result).
 */
async function seeded(box: Sandbox): Promise<{ transcript: string }> {
  const transcript = box.transcript(`${SESSION}.jsonl`, [line.prompt("fix the test")]);
  const sub = subagentTranscript(box);
  mkdirSync(join(sub, ".."), { recursive: true });
  writeFileSync(sub, jsonl([line.prompt("look at /x", { sidechain: true, agentId: AGENT })]));
  const ctx = () => processContext(box.env());
  const base = { session_id: SESSION, transcript_path: transcript, hook_event_name: "UserPromptSubmit" };
  await userPromptSubmit({ ...base, prompt: "fix the test", prompt_id: promptIdOf("fix the test") }, ctx());
  const calls = [
    { tool_name: "Bash", tool_input: { command: "echo seed 1" }, tool_use_id: "toolu_seed_1" },
    { tool_name: "Bash", tool_input: { command: "echo seed 2" }, tool_use_id: "toolu_seed_2" },
    { agent_id: AGENT, agent_type: "general-purpose", tool_name: "Read", tool_input: { file_path: "/x" }, tool_use_id: "toolu_seed_sub" },
  ];
  for (const call of calls) {
    const file = call.agent_id ? sub : transcript;
    const options = call.agent_id ? { sidechain: true, agentId: AGENT } : {};
    appendFileSync(
      file,
      jsonl(line.assistant(`msg_${call.tool_use_id}`, [use(call.tool_use_id, call.tool_name, call.tool_input)], options)),
    );
    await preToolUse({ ...base, ...call, hook_event_name: "PreToolUse" }, ctx());
    appendFileSync(file, jsonl([line.result(call.tool_use_id, "", options)]));
  }
  return { transcript };
}

type Stdin = string | Buffer;
interface ErrorCase {
  name: string;
  stdin: (input: Record<string, unknown>) => Stdin;
  /** What stderr must name. */
  names: RegExp;
  only?: readonly EntryFile[];
  /** Bytes that are no JSON object: a command hook's stdin only (the server is sent fields, never bytes; its framing: test/server/protocol.test.ts). */
  bytes?: true;
}

const without = (input: Record<string, unknown>, key: string) =>
  JSON.stringify(Object.fromEntries(Object.entries(input).filter(([k]) => k !== key)));
const withField = (key: string, value: unknown) => (input: Record<string, unknown>) => JSON.stringify({ ...input, [key]: value });
const TOOL_HOOKS = ["pre-tool-use"] as const;
const STOP_HOOKS = ["stop", "subagent-stop"] as const;

const ERROR_CASES: ErrorCase[] = [
  { name: "empty input", bytes: true, stdin: () => "", names: /hook input is empty/ },
  { name: "only whitespace", bytes: true, stdin: () => "  \n\t\n", names: /not valid JSON/ },
  { name: "an open brace", bytes: true, stdin: () => "{", names: /not valid JSON/ },
  { name: "cut in half", bytes: true, stdin: (i) => JSON.stringify(i).slice(0, 60), names: /not valid JSON/ },
  { name: "two objects", bytes: true, stdin: (i) => `${JSON.stringify(i)}\n${JSON.stringify(i)}`, names: /not valid JSON/ },
  { name: "UTF-16", bytes: true, stdin: (i) => Buffer.from(JSON.stringify(i), "utf16le"), names: /not valid JSON/ },
  { name: "an array", bytes: true, stdin: (i) => JSON.stringify([i]), names: /not a JSON object/ },
  { name: "a string", bytes: true, stdin: () => '"PreToolUse"', names: /not a JSON object/ },
  { name: "null", bytes: true, stdin: () => "null", names: /not a JSON object/ },
  { name: "a number", bytes: true, stdin: () => "42", names: /not a JSON object/ },
  { name: "true", bytes: true, stdin: () => "true", names: /not a JSON object/ },
  {
    name: "invalid UTF-8",
    bytes: true,
    stdin: (i) =>
      Buffer.concat([
        Buffer.from(JSON.stringify(i).slice(0, -1)),
        Buffer.from(',"x":"\xff\xfe'.split("").map((c) => c.charCodeAt(0))),
        Buffer.from('"}'),
      ]),
    names: /not valid UTF-8/,
  },
  {
    name: "a lone surrogate byte sequence",
    bytes: true,
    stdin: (i) =>
      Buffer.concat([
        Buffer.from(JSON.stringify(i).slice(0, -1)),
        Buffer.from(',"x":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
    names: /not valid UTF-8/,
  },
  { name: "10 MB that is not JSON", bytes: true, stdin: () => "x".repeat(10 * 1024 * 1024), names: /not valid JSON/ },
  { name: "no session_id", stdin: (i) => without(i, "session_id"), names: /session_id/ },
  { name: "session_id a number", stdin: withField("session_id", 42), names: /session_id/ },
  { name: "session_id empty", stdin: withField("session_id", ""), names: /session_id/ },
  { name: "session_id null", stdin: withField("session_id", null), names: /session_id/ },
  { name: "session_id an object", stdin: withField("session_id", { id: SESSION }), names: /session_id/ },
  { name: "no transcript_path", stdin: (i) => without(i, "transcript_path"), names: /transcript_path/ },
  { name: "transcript_path a number", stdin: withField("transcript_path", 7), names: /transcript_path/ },
  { name: "transcript_path a list", stdin: withField("transcript_path", ["/a", "/b"]), names: /transcript_path/ },
  { name: "no hook_event_name", stdin: (i) => without(i, "hook_event_name"), names: /hook_event_name/ },
  { name: "agent_id a number", stdin: withField("agent_id", 5), names: /agent_id/ },
  { name: "cwd a list", stdin: withField("cwd", []), names: /cwd/ },
  { name: "permission_mode false", stdin: withField("permission_mode", false), names: /permission_mode/ },
  { name: "no tool_name", stdin: (i) => without(i, "tool_name"), names: /tool_name/, only: TOOL_HOOKS },
  { name: "tool_name an object", stdin: withField("tool_name", { name: "Bash" }), names: /tool_name/, only: TOOL_HOOKS },
  { name: "tool_name empty", stdin: withField("tool_name", ""), names: /tool_name/, only: TOOL_HOOKS },
  { name: "tool_use_id a number", stdin: withField("tool_use_id", 12), names: /tool_use_id/, only: TOOL_HOOKS },
  { name: "stop_hook_active a string", stdin: withField("stop_hook_active", "yes"), names: /stop_hook_active/, only: STOP_HOOKS },
  {
    name: "agent_transcript_path a number",
    stdin: withField("agent_transcript_path", 1),
    names: /agent_transcript_path/,
    only: STOP_HOOKS,
  },
  { name: "prompt a number", stdin: withField("prompt", 5), names: /prompt/, only: ["user-prompt-submit"] },
  { name: "trigger a list", stdin: withField("trigger", ["auto"]), names: /trigger/, only: ["pre-compact"] },
  { name: "no agent_id", stdin: (i) => without(i, "agent_id"), names: /agent_id/, only: ["subagent-start"] },
  { name: "agent_id empty", stdin: withField("agent_id", ""), names: /agent_id/, only: ["subagent-start"] },
  { name: "reason a number", stdin: withField("reason", 3), names: /reason/, only: ["session-end"] },
];

/** The hooks that read a scope's transcript: the main one's, and SubagentStop its subagent's own. */
const MAIN_READERS = ["pre-tool-use", "stop", "session-end"] as const;
const ALL_READERS = [...MAIN_READERS, "subagent-stop"] as const;

interface ValidCase {
  name: string;
  /** A byte-order mark before the JSON: a command hook's stdin only. */
  bom?: boolean;
  /**
   * The hooks for which the scope's transcript is in trouble (src/hooks/transcript.ts: a link, no regular
   * file, or gone after lines were read): they say so instead of reading it (below).
   */
  trouble?: readonly EntryFile[];
  /** The main transcript is another file, without the last call's result line: a stop takes that call off the count. */
  resultLost?: boolean;
  /** Changes the (valid) input; may prepare the sandbox. */
  input: (input: Record<string, unknown>, box: Sandbox, entry: EntryFile) => Record<string, unknown>;
}

/** Where a subagent's own transcript is, beside the session's (the hooks derive it from transcript_path). */
const subagentTranscript = (box: Sandbox) => join(box.transcripts, SESSION, "subagents", `agent-${AGENT}.jsonl`);

/** Stands for a value nested too deep for JSON.stringify: spliced into the input's text. */
const DEEP = "\u0000DEEP\u0000";
const DEEP_TEXT = `${"[".repeat(50_000)}{"a":1}${"]".repeat(50_000)}`;

const TEN_MB = "y".repeat(10 * 1024 * 1024);
const VALID_CASES: ValidCase[] = [
  { name: "the input as Claude Code sends it", input: (i) => i },
  { name: "a byte-order mark before the JSON", input: (i) => i, bom: true },
  { name: "unknown extra fields", input: (i) => ({ ...i, future_field: { nested: [1, 2, 3] }, another: null }) },
  {
    name: "a 10 MB input",
    input: (i, _box, entry) =>
      entry === "pre-tool-use"
        ? { ...i, tool_input: { command: `echo ${TEN_MB}` } }
        : entry === "user-prompt-submit"
          ? { ...i, prompt: TEN_MB }
          : entry === "stop" || entry === "subagent-stop"
            ? { ...i, last_assistant_message: TEN_MB }
            : { ...i, custom_instructions: TEN_MB },
  },
  {
    name: "a tool input nested 50 000 levels deep",
    input: (i, _box, entry) => (entry === "pre-tool-use" ? { ...i, tool_input: DEEP } : { ...i, deep: DEEP }),
  },
  {
    // Lines were read from the session's transcript (and the subagent's, beside it): gone now.
    name: "a transcript that does not exist",
    trouble: ALL_READERS,
    input: (i, box) => ({ ...i, transcript_path: join(box.root, "nowhere", "missing.jsonl") }),
  },
  {
    name: "a transcript that is a directory",
    trouble: ALL_READERS,
    input: (i, box) => {
      const dir = join(box.transcripts, "dir.jsonl");
      mkdirSync(dir);
      rmSync(subagentTranscript(box));
      mkdirSync(subagentTranscript(box));
      return { ...i, transcript_path: dir };
    },
  },
  {
    name: "a transcript that is a FIFO nobody writes to",
    trouble: ALL_READERS,
    input: (i, box) => {
      const fifo = join(box.transcripts, "fifo.jsonl");
      execFileSync("mkfifo", [fifo]);
      rmSync(subagentTranscript(box));
      execFileSync("mkfifo", [subagentTranscript(box)]);
      return { ...i, transcript_path: fifo };
    },
  },
  {
    name: "a transcript that is a symlink loop",
    trouble: MAIN_READERS,
    input: (i, box) => {
      const loop = join(box.transcripts, "loop.jsonl");
      symlinkSync(loop, loop);
      return { ...i, transcript_path: loop };
    },
  },
  {
    name: "a transcript path with a NUL byte",
    trouble: MAIN_READERS,
    input: (i, box) => ({ ...i, transcript_path: `${box.transcripts}/a\u0000b.jsonl` }),
  },
  {
    // Another file in the transcript's place is read again from a safe point; the subagent's beside it is gone.
    name: "a transcript of garbage and invalid UTF-8",
    trouble: ["subagent-stop"],
    resultLost: true,
    input: (i, box) => ({
      ...i,
      transcript_path: box.file(
        "garbage.jsonl",
        Buffer.concat([
          Buffer.from("{not json\n\xff\xfe\n"),
          Buffer.from([0xc3, 0x28, 0x0a]),
          Buffer.from('{"type":"assistant","message":'),
        ]),
      ),
    }),
  },
];

const EVENT: Record<EntryFile, string> = Object.fromEntries(ENTRIES.map((e) => [e.file, e.event])) as Record<EntryFile, string>;

/** SubagentStart and SubagentStop are about a subagent; everything else about the main scope. */
function baseInput(entry: EntryFile, transcript: string): Record<string, unknown> {
  return hookInput(
    entry,
    { session: SESSION, transcript, agentId: entry === "subagent-stop" || entry === "subagent-start" ? AGENT : undefined },
    entry === "pre-tool-use" ? { tool_input: { command: "echo fresh" }, tool_use_id: "toolu_fresh" } : {},
  );
}

describe.concurrent.each(ENTRIES.map((e) => e.file))("%s", (entry) => {
  const served = isServed(entry);
  const errorCases = ERROR_CASES.filter((c) => (!c.only || c.only.includes(entry)) && !(served && c.bytes));
  it.each(errorCases)("$name: one line of trouble, exit 0, nothing lost", async (c) => {
    const box = sandbox();
    try {
      const { transcript } = await seeded(box);
      const before = expectDataWhole(box.data);
      const logBefore = logRecords(box.data, SESSION);
      const run = await runEntry(entry, c.stdin(baseInput(entry, transcript)), box.env(), { typed: true });
      expect(run.code).toBe(0);
      expect(run.signal).toBeNull();
      expect(run.stdout).toBe("");
      expectOneLineStderr(run.stderr);
      expect(run.stderr).toMatch(new RegExp(`^utility ${EVENT[entry]} hook: `));
      expect(run.stderr).toMatch(c.names);
      const after = expectDataWhole(box.data);
      expect(after.states).toEqual(before.states);
      expect(logRecords(box.data, SESSION)).toEqual(logBefore);
      expect(after.errors).toBe(before.errors + 1);
    } finally {
      box.remove();
    }
  });

  it.each(VALID_CASES.filter((c) => !(served && c.bom)))("$name: the normal behaviour, or the transcript's trouble said", async (c) => {
    const box = sandbox();
    try {
      const { transcript } = await seeded(box);
      const before = expectDataWhole(box.data);
      const logBefore = logRecords(box.data, SESSION);
      const input = c.input(baseInput(entry, transcript), box, entry);
      // The server is sent the tool's input as the JSON text Claude Code fills its template with.
      const text = JSON.stringify(input).replace(JSON.stringify(DEEP), served ? JSON.stringify(DEEP_TEXT) : DEEP_TEXT);
      const run = await runEntry(entry, `${c.bom ? "\uFEFF" : ""}${text}`, box.env());
      expect(run.code).toBe(0);
      expect(run.signal).toBeNull();
      expectOneLineStderr(run.stderr);
      const out = expectValidOutput(EVENT[entry], run.stdout);
      const after = expectDataWhole(box.data);
      const was = before.states[SESSION]!;
      const now = readState(box.data, SESSION)!;
      const logged = logRecords(box.data, SESSION);
      // Nothing written before is lost: the old lines are still the log's first lines.
      expect(logged.slice(0, logBefore.length)).toEqual(logBefore);
      expect(now.main.task).toBeGreaterThanOrEqual(was.main.task);
      if (c.trouble?.includes(entry)) {
        // The transcript cannot be read (issue 18): the hook says so in one line and changes nothing.
        // An ungated PreToolUse lets the call go on and tells the user too; the others fail as any trouble does.
        expect(run.stderr).toMatch(/the transcript .* (is a symbolic link|is not a regular file|is gone, after \d+ bytes|cannot be read)/);
        // The server keeps in its error log what a command hook says on stderr.
        expect(after.errors).toBe(before.errors + (served ? 1 : 0));
        if (entry === "pre-tool-use") {
          // An ungated call goes on, changes nothing, and the user is told.
          expect(now).toEqual(was);
          expect(logged).toEqual(logBefore);
          expect(run.stderr).toMatch(/^utility: the transcript .*; this scope is not gated, so the call goes on\.\n$/);
          expect(out).toEqual({ systemMessage: run.stderr.trim() });
        } else if (entry === "stop" || entry === "subagent-stop") {
          // The turn still ends (from what the state holds) and is logged; the user is told; nothing is blocked.
          expect(run.stderr).toMatch(/^utility: the transcript .*this turn's last lines could not be read/);
          expect(out).toEqual({ systemMessage: run.stderr.trim() });
          expect(logged.at(-1)).toMatchObject({ event: EVENT[entry], decision: "observed" });
        } else {
          // The session still ends, and is logged; only stderr tells (no one is there to read a message).
          expect(run.stderr).toMatch(/^utility: the transcript .*the session's last lines could not be read/);
          expect(run.stdout).toBe("");
          expect(logged.at(-1)).toMatchObject({ event: "SessionEnd" });
        }
        return;
      }
      expect(run.stderr).toBe("");
      // An ungated session: nothing refused, nothing blocked; `/utility status` is answered on screen (it reads no transcript).
      if (entry === "user-prompt-expansion") expect(out?.reason).toMatch(/^utility status, session /);
      else expect(run.stdout).toBe("");
      expect(after.errors).toBe(before.errors);
      const newLines = logged.length - before.logs[SESSION]!;
      switch (entry) {
        case "pre-tool-use":
          expect(now.main.step).toBe(was.main.step + 1);
          expect(logged.filter((r) => r.event === "PreToolUse").length - logBefore.filter((r) => r.event === "PreToolUse").length).toBe(1);
          expect(logged.at(-1)).toMatchObject({
            event: "PreToolUse",
            decision: "observed",
            step: was.main.step + 1,
            toolUseId: "toolu_fresh",
          });
          break;
        case "subagent-start":
          // The subagent is known already (its first call came first): nothing changes, its start is logged.
          expect(now).toEqual(was);
          expect(newLines).toBe(1);
          expect(logged.at(-1)).toMatchObject({ event: "SubagentStart", decision: "observed", agentId: AGENT });
          break;
        case "stop":
          expect(logged.at(-1)).toMatchObject({ event: "Stop", decision: "observed", ...(c.resultLost ? { uncounted: 1 } : {}) });
          // The last call's result line is read (it ran); with no such line, it never ran and is no step.
          expect(now.main.step).toBe(was.main.step - (c.resultLost ? 1 : 0));
          expect(now.main.pending).toEqual({});
          break;
        case "subagent-stop":
          expect(logged.at(-1)).toMatchObject({ event: "SubagentStop", decision: "observed", agentId: AGENT });
          expect(now.agents[AGENT]!.ended).toBe(true);
          // Its call's result line is read: it ran, so the step stays counted.
          expect(now.agents[AGENT]!.step).toBe(was.agents[AGENT]!.step);
          break;
        case "user-prompt-submit":
          if (c.trouble?.includes("pre-tool-use")) {
            // Its line can never be read (issue 31, hole 17): the prompt is taken by its text, a typed one starting its task now.
            expect(now.main.task).toBe(was.main.task + 1);
            expect(newLines).toBe(1);
            expect(logged.at(-1)!.reason).toMatch(/^prompt received; the transcript .*, so it is taken by its text$/);
            break;
          }
          // It starts no task (SPEC §2): it vouches for the prompt, and the next hook applies it once its line shows it typed.
          expect(now.main.task).toBe(was.main.task);
          expect(now.main.step).toBe(was.main.step);
          expect(Object.keys(now.prompts ?? {}).length).toBe(Object.keys(was.prompts ?? {}).length + 1);
          expect(now.main.awaitingActivation).toBe(true);
          expect(newLines).toBe(1);
          break;
        case "user-prompt-expansion":
          // `/utility status` switches nothing, starts no task, and is logged once.
          expect(now.main).toEqual(was.main);
          expect(now.manualGate).toBe(was.manualGate);
          expect(newLines).toBe(1);
          expect(logged.at(-1)).toMatchObject({ event: "UserPromptExpansion", decision: "observed" });
          break;
        case "pre-compact":
          expect(now.main.history).toEqual([]);
          expect(newLines).toBe(0);
          break;
        case "session-end":
          expect(logged.at(-1)).toMatchObject({ event: "SessionEnd", decision: "observed" });
          expect(now.main.step).toBe(was.main.step);
          break;
      }
    } finally {
      box.remove();
    }
  });
});
