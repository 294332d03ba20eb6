/**
 * SPEC §10, fail closed where promised and open where promised. A gated scope
 * (by a skill, by /utility on, by a subagent's definition) whose state cannot
 * be read or kept, or whose opt-in is invalid, refuses the call with the
 * reason, even when the model's report is valid. An ungated scope never
 * blocks because of the plugin's own trouble: unreadable state, an unusable
 * data folder or log, a missing transcript, a lock that never frees. A
 * scope's transcript that is no regular file, or gone after lines were read
 * from it (issue 18), is trouble the user is told of, and a gated scope
 * refuses on it. Every hook runs as a real process.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_DECISION } from "../support/hook-output.js";
import {
  GOOD,
  expectOneLineStderr,
  hookInput,
  jsonl,
  line,
  logRecords,
  readState,
  runEntry,
  sandbox,
  skillFolder,
  text,
  use,
  type Sandbox,
} from "./support.js";

let box: Sandbox;
let counter = 0;
beforeAll(() => {
  box = sandbox("utility-fail-");
  box.file(
    "project/.claude/agents/gated-helper.md",
    "---\nname: gated-helper\ndescription: gated from its start\nutility_gated: true\n---\nHelp.\n",
  );
});
afterAll(() => box.remove());

type Kind = "skill" | "manual" | "agent" | "ungated";

interface Session {
  id: string;
  transcript: string;
  /** The transcript of the scope that makes the calls: the session's, or the subagent's own. */
  scopeTranscript: string;
  data: string;
  /** The PreToolUse input of the next call, whose report (if gated) is valid. */
  next: () => string;
  env: Record<string, string>;
}

/**
 * A data folder so deep that the state file's path is 4090 bytes long: it and
 * its lock (4095) can be made, read and written, but the temp file the state
 * is written through (`<file>.<pid>.tmp`) passes PATH_MAX (4096 with its NUL)
 * and cannot. As root, the one way to make the state unwritable but readable.
 */
function deepDataDir(parent: string, id: string): string {
  const stateFileLength = (dir: string) => Buffer.byteLength(join(dir, "state", `${id}.json`));
  let dir = parent;
  while (stateFileLength(join(dir, "d".repeat(200))) < 4090) dir = join(dir, "d".repeat(200));
  return join(dir, "d".repeat(4090 - stateFileLength(dir) - 1));
}

/** A session whose first call passed, and whose next call carries a valid report: only trouble can refuse it. */
async function session(kind: Kind, deep = false): Promise<Session> {
  const id = `fail-${kind}-${++counter}`;
  const data = deep ? deepDataDir(box.root, id) : join(box.root, `data-${id}`);
  const env = box.env({ UTILITY_DATA_DIR: data });
  const gated = skillFolder(box, `gated-${id}`, "utility_gated: true");
  const agent = kind === "agent" ? { agentId: "sub1", agentType: "gated-helper" } : {};
  const calls = [
    ...line.assistant("m0", [text(GOOD("verify")), use("t0", "Bash")]),
    ...line.assistant("m1", [text(GOOD("verify")), use("t1", "Bash")]),
  ];
  const main = [
    line.prompt(kind === "manual" ? "/utility on" : "go"),
    ...(kind === "skill" ? [line.skill(gated)] : []),
    ...(kind === "agent" ? [] : calls),
  ];
  const transcript = box.transcript(`${id}.jsonl`, main);
  const scopeTranscript =
    kind === "agent"
      ? box.transcript(join(id, "subagents", "agent-sub1.jsonl"), [line.prompt("sub", { sidechain: true }), ...calls])
      : transcript;
  const input = (t: string) =>
    JSON.stringify(
      hookInput(
        "pre-tool-use",
        { session: id, transcript, cwd: box.project, ...agent },
        { tool_input: { command: `echo ${t}` }, tool_use_id: t },
      ),
    );
  // A state that cannot be written never holds a first call: the next call is the first the gate sees.
  if (deep) return { id, transcript, scopeTranscript, data, env, next: () => input("t1") };
  const ups = await runEntry(
    "user-prompt-submit",
    JSON.stringify(hookInput("user-prompt-submit", { session: id, transcript }, { prompt: kind === "manual" ? "/utility on" : "go" })),
    env,
  );
  expect(ups).toMatchObject({ code: 0, stderr: "" });
  const first = await runEntry("pre-tool-use", input("t0"), env);
  expect(first).toMatchObject({ code: 0, stdout: NO_DECISION, stderr: "" });
  const state = readState(data, id)!;
  expect(kind === "agent" ? state.agents.sub1!.step : state.main.step).toBe(1);
  return { id, transcript, scopeTranscript, data, env, next: () => input("t1") };
}

const statePath = (s: Session) => join(s.data, "state", `${s.id}.json`);

const TROUBLES: Array<[string, (s: Session) => void, RegExp, Kind[]?]> = [
  [
    "the state file replaced by a directory",
    (s) => {
      rmSync(statePath(s));
      mkdirSync(statePath(s));
    },
    /state.*cannot be read|cannot read the state file/,
  ],
  ["the state file is not JSON", (s) => writeFileSync(statePath(s), "{ not json"), /not valid JSON/],
  ["the state file is empty", (s) => writeFileSync(statePath(s), ""), /not valid JSON/],
  ["the state file has the wrong shape", (s) => writeFileSync(statePath(s), JSON.stringify({ version: 2, main: [] })), /wrong shape/],
  [
    "the state file is a FIFO",
    (s) => {
      rmSync(statePath(s));
      execFileSync("mkfifo", [statePath(s)]);
    },
    /cannot read the state file/,
  ],
  [
    "the state folder is a file",
    (s) => {
      rmSync(join(s.data, "state"), { recursive: true });
      writeFileSync(join(s.data, "state"), "");
    },
    /cannot keep the state file|cannot read the state file/,
  ],
  [
    "the data folder is a file",
    (s) => {
      rmSync(s.data, { recursive: true });
      writeFileSync(s.data, "");
    },
    /cannot keep the state file|cannot read the state file/,
    ["skill", "agent", "ungated"],
  ],
];

describe.concurrent("a gated scope fails closed, with the reason", () => {
  for (const kind of ["skill", "manual", "agent"] as const) {
    for (const [name, breakIt, reason, kinds] of TROUBLES) {
      if (kinds && !kinds.includes(kind)) continue;
      it(`gated by ${kind}: ${name}`, async () => {
        const s = await session(kind);
        breakIt(s);
        const run = await runEntry("pre-tool-use", s.next(), s.env);
        expect(run.code).toBe(0);
        expectOneLineStderr(run.stderr);
        const out = JSON.parse(run.stdout).hookSpecificOutput;
        expect(out.permissionDecision).toBe("deny");
        expect(out.permissionDecisionReason).toMatch(/^utility gate: the gate's state cannot be read \(/);
        expect(out.permissionDecisionReason).toMatch(reason);
      });
    }
  }

  it.each(["skill", "agent"] as const)(
    "gated by %s: the state can be read but not written (the data folder cannot be written)",
    async (kind) => {
      const s = await session(kind, true);
      const run = await runEntry("pre-tool-use", s.next(), s.env);
      expect(run.code).toBe(0);
      const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
      expect(reason).toMatch(/cannot keep the state file .*ENAMETOOLONG/);
    },
  );

  it("gated by /utility on: a tool input nested too deep to walk is still decided (refused, no report of its own)", async () => {
    const s = await session("manual");
    const input = JSON.parse(s.next()) as Record<string, unknown>;
    // As Claude Code fills the server's `${tool_input}` template: the input's JSON text.
    const deep = JSON.stringify({ ...input, tool_use_id: "t-deep", tool_input: `${"[".repeat(50_000)}${"]".repeat(50_000)}` });
    const run = await runEntry("pre-tool-use", deep, s.env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("gated by a skill: the lock held by a live process for longer than the wait", async () => {
    const s = await session("skill");
    writeFileSync(`${statePath(s)}.lock`, `${process.pid} ${Date.now()}`);
    const run = await runEntry("pre-tool-use", s.next(), s.env);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/held by a live process/);
  });

  it("gated by /utility on: the lock held by a live process (the state is still read to know the gate)", async () => {
    const s = await session("manual");
    writeFileSync(`${statePath(s)}.lock`, `${process.pid} ${Date.now()}`);
    const run = await runEntry("pre-tool-use", s.next(), s.env);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });
});

/** The scope's transcript made unreadable after its first call's lines were read (issue 18: a shell can do it to hide lines). */
const TRANSCRIPT_TROUBLES: Array<[string, (s: Session) => void, RegExp]> = [
  ["the transcript is gone", (s) => rmSync(s.scopeTranscript), /is gone, after \d+ bytes were read from it/],
  [
    "the transcript is a directory",
    (s) => {
      rmSync(s.scopeTranscript);
      mkdirSync(s.scopeTranscript);
    },
    /is not a regular file/,
  ],
  [
    "the transcript is a FIFO",
    (s) => {
      rmSync(s.scopeTranscript);
      execFileSync("mkfifo", [s.scopeTranscript]);
    },
    /is not a regular file/,
  ],
  [
    "the transcript is a link to a copy of itself",
    (s) => {
      const copy = `${s.scopeTranscript}.copy`;
      writeFileSync(copy, readFileSync(s.scopeTranscript));
      rmSync(s.scopeTranscript);
      symlinkSync(copy, s.scopeTranscript);
    },
    /is a symbolic link/,
  ],
];

describe.concurrent("a gated scope whose transcript cannot be read refuses, and tells the user", () => {
  for (const kind of ["skill", "manual", "agent"] as const) {
    for (const [name, breakIt, says] of TRANSCRIPT_TROUBLES) {
      it(`gated by ${kind}: ${name}`, async () => {
        const s = await session(kind);
        breakIt(s);
        const run = await runEntry("pre-tool-use", s.next(), s.env, { timeoutMs: 10_000 });
        expect(run).toMatchObject({ code: 0, signal: null });
        expectOneLineStderr(run.stderr);
        const out = JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, string>; systemMessage: string };
        expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
        const reason = out.hookSpecificOutput.permissionDecisionReason!;
        expect(reason.startsWith(`utility gate: the transcript ${s.scopeTranscript} `), reason).toBe(true);
        expect(reason).toMatch(says);
        expect(reason).toMatch(/so no report can be read and no call can be checked/);
        expect(out.systemMessage).toBe(reason);
        expect(logRecords(s.data, s.id).at(-1)).toMatchObject({
          event: "PreToolUse",
          toolUseId: "t1",
          decision: "refused",
          rule: "transcript_unreadable",
          gated: true,
        });
      });
    }
  }
});

describe.concurrent("an invalid opt-in refuses under the gate, naming the file and the key", () => {
  const optIns: Array<[string, string, RegExp]> = [
    ["utility_gated as a string", 'utility_gated: "true"', /utility_gated/],
    ["utility_max_steps: 0", "utility_gated: true\nutility_max_steps: 0", /utility_max_steps/],
    ["utility_floor out of range", "utility_gated: true\nutility_floor: -9", /utility_floor/],
    ["two lambdas", "utility_gated: true\nutility_lambdas: [1, 2]", /utility_lambdas/],
    ["an unknown scope", "utility_gated: true\nutility_scope: everything", /utility_scope/],
    [
      "top level and metadata disagree",
      "utility_gated: true\nutility_max_steps: 5\nmetadata:\n  utility_max_steps: 6",
      /utility_max_steps/,
    ],
    ["YAML that does not parse", "utility_gated: true\nutility_tools: [unclosed", /YAML|frontmatter/],
  ];
  it.each(optIns)("%s", async (_name, frontmatter, key) => {
    const id = `optin-${++counter}`;
    const skill = skillFolder(box, id, frontmatter);
    const transcript = box.transcript(`${id}.jsonl`, [
      line.prompt("go"),
      line.skill(skill),
      ...line.assistant("m1", [text(GOOD("verify")), use("t1", "Bash")]),
    ]);
    const run = await runEntry(
      "pre-tool-use",
      JSON.stringify(hookInput("pre-tool-use", { session: id, transcript }, { tool_use_id: "t1" })),
      box.env(),
    );
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
    expect(reason).toMatch(/invalid opt-in/);
    expect(reason).toContain(join(skill, "SKILL.md"));
    expect(reason).toMatch(key);
  });

  it("a ---js front matter that asks for gating is refused, never run", async () => {
    const id = `optin-js-${++counter}`;
    const marker = join(box.root, `ran-${id}`);
    box.file(
      `skills/${id}/SKILL.md`,
      `---js\n{ utility_gated: true, x: require("fs").writeFileSync(${JSON.stringify(marker)}, "ran") }\n---\n# js\n`,
    );
    const transcript = box.transcript(`${id}.jsonl`, [
      line.prompt("go"),
      line.skill(join(box.root, "skills", id)),
      ...line.assistant("m1", [text(GOOD("verify")), use("t1", "Bash")]),
    ]);
    const run = await runEntry(
      "pre-tool-use",
      JSON.stringify(hookInput("pre-tool-use", { session: id, transcript }, { tool_use_id: "t1" })),
      box.env(),
    );
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/invalid opt-in/);
    expect(() => execFileSync("test", ["-e", marker])).toThrow();
  });

  it("a subagent whose definition has an invalid opt-in", async () => {
    const id = `optin-agent-${++counter}`;
    box.file(`project/.claude/agents/${id}.md`, `---\nname: ${id}\ndescription: bad\nutility_gated: yes please\n---\nx\n`);
    const transcript = box.transcript(`${id}.jsonl`, [line.prompt("go")]);
    box.transcript(join(id, "subagents", "agent-sub1.jsonl"), [
      line.prompt("x", { sidechain: true }),
      ...line.assistant("m1", [text(GOOD("verify")), use("t1", "Bash")]),
    ]);
    const run = await runEntry(
      "pre-tool-use",
      JSON.stringify(
        hookInput("pre-tool-use", { session: id, transcript, cwd: box.project, agentId: "sub1", agentType: id }, { tool_use_id: "t1" }),
      ),
      box.env(),
    );
    const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
    expect(reason).toMatch(/invalid opt-in/);
    expect(reason).toContain(`${id}.md`);
  });
});

describe.concurrent("a log that cannot be written costs no decision", () => {
  const breakLog = (s: Session) => {
    const log = join(s.data, "sessions", `${s.id}.jsonl`);
    rmSync(log);
    mkdirSync(log);
  };

  it("gated: a call with no report is still refused, a valid one still passes, the state still counts", async () => {
    const s = await session("skill");
    breakLog(s);
    appendFileSync(s.transcript, jsonl(line.assistant("m9", [use("t9", "Bash")])));
    const bare = await runEntry(
      "pre-tool-use",
      JSON.stringify(hookInput("pre-tool-use", { session: s.id, transcript: s.transcript }, { tool_use_id: "t9" })),
      s.env,
    );
    expect(JSON.parse(bare.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expectOneLineStderr(bare.stderr);
    expect(bare.stderr).toMatch(/step log cannot be written/);
    const valid = await runEntry("pre-tool-use", s.next(), s.env);
    expect(valid.stdout).toEqual(NO_DECISION);
    expect(readState(s.data, s.id)!.main).toMatchObject({ step: 2, refusals: 1 });
  });

  it("gated: a FIFO in the log's place blocks nothing (no hang, the refusal stands)", async () => {
    const s = await session("skill");
    const log = join(s.data, "sessions", `${s.id}.jsonl`);
    rmSync(log);
    execFileSync("mkfifo", [log]);
    appendFileSync(s.transcript, jsonl(line.assistant("m9", [use("t9", "Bash")])));
    const bare = await runEntry(
      "pre-tool-use",
      JSON.stringify(hookInput("pre-tool-use", { session: s.id, transcript: s.transcript }, { tool_use_id: "t9" })),
      s.env,
      { timeoutMs: 10_000 },
    );
    expect(bare.signal).toBeNull();
    expect(JSON.parse(bare.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("gated Stop: the block stands when the log cannot be written", async () => {
    const s = await session("skill");
    breakLog(s);
    const stop = await runEntry(
      "stop",
      JSON.stringify(hookInput("stop", { session: s.id, transcript: s.transcript }, { last_assistant_message: GOOD("verify") })),
      s.env,
    );
    expect(JSON.parse(stop.stdout)).toMatchObject({ decision: "block" });
    expectOneLineStderr(stop.stderr);
  });
});

describe.concurrent("an ungated scope never blocks because of the plugin's own trouble", () => {
  const UNGATED: Array<[string, (s: Session) => void]> = [
    ...TROUBLES.map(([name, breakIt]) => [name, breakIt] as [string, (s: Session) => void]),
    [
      "the log is a directory",
      (s) => {
        const log = join(s.data, "sessions", `${s.id}.jsonl`);
        rmSync(log);
        mkdirSync(log);
      },
    ],
    [
      "the log is a FIFO",
      (s) => {
        const log = join(s.data, "sessions", `${s.id}.jsonl`);
        rmSync(log);
        execFileSync("mkfifo", [log]);
      },
    ],
    [
      "the log folder is a file",
      (s) => {
        rmSync(join(s.data, "sessions"), { recursive: true });
        writeFileSync(join(s.data, "sessions"), "");
      },
    ],
    ["the lock is held by a live process", (s) => writeFileSync(`${statePath(s)}.lock`, `${process.pid} ${Date.now()}`)],
  ];

  it.each(UNGATED)("%s: PreToolUse stays silent (exit 0, at most one line on stderr)", async (_name, breakIt) => {
    const s = await session("ungated");
    breakIt(s);
    const run = await runEntry("pre-tool-use", s.next(), s.env, { timeoutMs: 10_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expectOneLineStderr(run.stderr);
  });

  it.each(TRANSCRIPT_TROUBLES)(
    "%s: PreToolUse lets the call go on, and says so to the user and on stderr",
    async (_name, breakIt, says) => {
      const s = await session("ungated");
      breakIt(s);
      const run = await runEntry("pre-tool-use", s.next(), s.env, { timeoutMs: 10_000 });
      expect(run).toMatchObject({ code: 0, signal: null });
      expectOneLineStderr(run.stderr);
      expect(run.stderr).toMatch(says);
      expect(run.stderr).toMatch(/^utility: the transcript .*; this scope is not gated, so the call goes on\.\n$/);
      expect(JSON.parse(run.stdout)).toEqual({ systemMessage: run.stderr.trim() });
    },
  );

  it.each([...UNGATED, ...TRANSCRIPT_TROUBLES.map(([name, breakIt]) => [name, breakIt] as [string, (s: Session) => void])])(
    "%s: SubagentStart, Stop, PreCompact and SessionEnd stay silent too",
    async (_name, breakIt) => {
      const s = await session("ungated");
      breakIt(s);
      const entries = ["subagent-start", "stop", "pre-compact", "session-end"] as const;
      const runs = await Promise.all(
        entries.map((entry) =>
          runEntry(
            entry,
            JSON.stringify(hookInput(entry, { session: s.id, transcript: s.transcript }, { last_assistant_message: GOOD("verify") })),
            s.env,
            { timeoutMs: 10_000 },
          ),
        ),
      );
      for (const [i, run] of runs.entries()) {
        const entry = entries[i];
        expect(run.signal, entry).toBeNull();
        expect(run.code, entry).toBe(0);
        // Stop tells the user what it could not read (a systemMessage, the same words on stderr); nothing is blocked.
        if (run.stdout !== "") expect(JSON.parse(run.stdout), entry).toEqual({ systemMessage: run.stderr.trim() });
        expect(run.stdout.includes('"decision"'), entry).toBe(false);
        expectOneLineStderr(run.stderr);
      }
    },
  );

  it("the state can be read but not written: PreToolUse stays silent, and the error log says why", async () => {
    const s = await session("ungated", true);
    const run = await runEntry("pre-tool-use", s.next(), s.env);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expectOneLineStderr(run.stderr);
    // The server answers an ungated call first and writes after (src/server/serve.ts): the write's trouble is logged.
    expect(run.stderr).toMatch(/^utility PreToolUse hook: after its answer, cannot keep the state file .*ENAMETOOLONG/);
  });

  it("a log that cannot be written still counts the step in the state", async () => {
    const s = await session("ungated");
    const log = join(s.data, "sessions", `${s.id}.jsonl`);
    rmSync(log);
    mkdirSync(log);
    const run = await runEntry("pre-tool-use", s.next(), s.env);
    expect(run.stdout).toBe("");
    expect(readState(s.data, s.id)!.main.step).toBe(2);
    expect(readFileSync(join(s.data, "errors.jsonl"), "utf8")).toMatch(/step log cannot be written/);
  });
});
