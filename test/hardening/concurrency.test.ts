/**
 * Concurrency and crashes (SPEC §8, §11): many calls on one session at once,
 * through its hook server and through two servers sharing it, lose no step
 * and no log line; a hook killed while it holds the
 * state's lock (SIGKILL, between its writes) leaves state the next hook reads
 * and a lock it takes over; two sessions in one project never mix.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_DECISION } from "../support/hook-output.js";
import {
  GOOD,
  expectDataWhole,
  expectOneLineStderr,
  hookDist,
  hookInput,
  jsonl,
  line,
  logRecords,
  pool,
  readState,
  runEntry,
  sandbox,
  skillFolder,
  text,
  use,
  type Sandbox,
} from "./support.js";
import { deadPid } from "../support/dead-pid.js";
import { runServedBatch } from "./served.js";

/** PreToolUse with a store that pauses while it holds the lock. */
const HELD_ENTRY = fileURLToPath(new URL("./entries/pre-tool-use-held.ts", import.meta.url));

let box: Sandbox;
beforeEach(() => {
  box = sandbox("utility-conc-");
});
afterEach(() => box.remove());

const S = "c0ffee00-0000-4000-8000-000000000001";

async function prompt(session: string, transcript: string, text = "go"): Promise<void> {
  const run = await runEntry(
    "user-prompt-submit",
    JSON.stringify(hookInput("user-prompt-submit", { session, transcript }, { prompt: text })),
    box.env(),
  );
  expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
}

const call = (session: string, transcript: string, i: number, extra: { agentId?: string; agentType?: string } = {}) =>
  JSON.stringify(
    hookInput(
      "pre-tool-use",
      { session, transcript, ...extra },
      { tool_name: "Bash", tool_input: { command: `echo ${i}` }, tool_use_id: `toolu_${i}` },
    ),
  );

describe("parallel hooks on one session", () => {
  // Claude Code sends the hooks of parallel tool calls at once to the session's one hook server; a session open in
  // two Claude Code processes (resumed twice) has two servers sharing its state under the lock.
  it.each([
    [128, 1],
    [64, 2],
  ])(
    "%i PreToolUse calls at once through %i server(s): every step counted, every line logged, no torn state ever seen",
    async (n, servers) => {
      const transcript = box.transcript(`${S}.jsonl`, [line.prompt("go")]);
      await prompt(S, transcript);
      // A reader without the lock (as each call is, before it takes the lock) must never see a torn file.
      const file = join(box.data, "state", `${S}.json`);
      let reads = 0;
      const torn: string[] = [];
      const reader = setInterval(() => {
        try {
          JSON.parse(readFileSync(file, "utf8"));
          reads++;
        } catch (error) {
          torn.push(String(error));
        }
      }, 1);
      const share = n / servers;
      const batches = await Promise.all(
        Array.from({ length: servers }, (_, k) =>
          runServedBatch(
            hookDist(),
            "PreToolUse",
            Array.from({ length: share }, (_, i) => call(S, transcript, k * share + i)),
            box.env(),
          ),
        ),
      );
      clearInterval(reader);
      expect(torn).toEqual([]);
      expect(reads).toBeGreaterThan(10);
      for (const batch of batches) {
        expect(batch).toMatchObject({ code: 0, signal: null, stderr: "" });
        expect(batch.stdouts).toEqual(batch.stdouts.map(() => ""));
      }
      const whole = expectDataWhole(box.data);
      expect(whole.states[S]!.main.step).toBe(n);
      expect(Object.keys(whole.states[S]!.main.pending)).toHaveLength(n);
      const records = logRecords(box.data, S).filter((r) => r.event === "PreToolUse");
      expect(records).toHaveLength(n);
      expect(new Set(records.map((r) => r.toolUseId)).size).toBe(n);
      expect(records.map((r) => r.step).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(readdirSync(join(box.data, "state"))).toEqual([`${S}.json`]); // no lock or temp file left
    },
  );

  it("32 calls under one report in a gated scope, 8 subagent calls racing them; then their 32 results read by 32 racing hooks: nothing lost, nothing twice", async () => {
    const gated = skillFolder(box, "gated", "utility_gated: true\nutility_max_steps: 100");
    const ids = Array.from({ length: 32 }, (_, i) => i);
    const message = (id: string, from: number) =>
      line.assistant(id, [text(GOOD("verify")), ...ids.map((i) => use(`toolu_${from + i}`, "Bash", { command: `echo ${from + i}` }))]);
    const transcript = box.transcript(`${S}.jsonl`, [line.prompt("go"), line.skill(gated), ...message("msg_1", 0)]);
    await prompt(S, transcript);
    // The main scope's calls and 8 subagent calls, all at once to the session's server.
    const wave = async (from: number) => {
      const inputs = [
        ...ids.map((i) => call(S, transcript, from + i)),
        ...Array.from({ length: 8 }, (_, i) => call(S, transcript, from + 100 + i, { agentId: `agent${i % 2}` })),
      ];
      const batch = await runServedBatch(hookDist(), "PreToolUse", inputs, box.env());
      expect(batch).toMatchObject({ code: 0, signal: null, stderr: "" });
      for (const stdout of batch.stdouts) expect(stdout).toEqual(NO_DECISION);
    };
    await wave(0);
    expect(expectDataWhole(box.data).states[S]!.main).toMatchObject({ step: 32, refusals: 0 });
    // The calls ran: Claude Code writes their results, then the next message; its 32 calls' hooks race to read them.
    appendFileSync(transcript, jsonl([...ids.map((i) => line.result(`toolu_${i}`, `${i}`)), ...message("msg_2", 1000)]));
    await wave(1000);
    const state = expectDataWhole(box.data).states[S]!;
    expect(state.main).toMatchObject({ step: 64, refusals: 0 });
    expect(state.main.history.map((h) => h.toolUseId).sort()).toEqual(ids.map((i) => `toolu_${i}`).sort());
    expect(Object.keys(state.main.pending).sort()).toEqual(ids.map((i) => `toolu_${1000 + i}`).sort());
    expect(state.agents.agent0!.step + state.agents.agent1!.step).toBe(16);
    const records = logRecords(box.data, S);
    const pre = records.filter((r) => r.event === "PreToolUse");
    expect(pre.filter((r) => r.decision === "passed")).toHaveLength(64);
    expect(pre).toHaveLength(80);
    // Each result learned once, by one of the racing hooks.
    const outcomes = records.filter((r) => r.event === "Outcome");
    expect(outcomes.map((r) => r.toolUseId).sort()).toEqual(ids.map((i) => `toolu_${i}`).sort());
    expect(outcomes.every((r) => r.outcome.result === "ran" && r.outcome.learnedBy === "PreToolUse")).toBe(true);
  });
});

describe("a hook killed halfway", () => {
  it("SIGKILL while it holds the lock, before it writes: the next hook takes the lock over and reads the state whole", async () => {
    const transcript = box.transcript(`${S}.jsonl`, [line.prompt("go")]);
    await prompt(S, transcript);
    for (const i of [1, 2])
      expect(await runEntry("pre-tool-use", call(S, transcript, i), box.env())).toMatchObject({ code: 0, stdout: "" });
    const file = join(box.data, "state", `${S}.json`);
    const before = readFileSync(file, "utf8");
    const lock = `${file}.lock`;
    let held = false;
    // This hook's store pauses once it holds the lock (a seam the test entry injects): kill it there.
    const killed = await runEntry("pre-tool-use", call(S, transcript, 3), box.env({ HELD_MS: "20000" }), {
      script: HELD_ENTRY,
      timeoutMs: 60_000,
      onSpawn: (pid) => {
        const poll = setInterval(() => {
          if (existsSync(lock) && readFileSync(lock, "utf8").startsWith(`${pid} `)) {
            held = true;
            clearInterval(poll);
            process.kill(pid, "SIGKILL");
          }
        }, 2);
      },
    });
    expect(held).toBe(true);
    expect(killed.signal).toBe("SIGKILL");
    expect(existsSync(lock)).toBe(true); // the dead hook's lock is still there
    expect(readFileSync(file, "utf8")).toBe(before); // nothing torn, nothing half-written

    const next = await runEntry("pre-tool-use", call(S, transcript, 4), box.env());
    expect(next).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(next.ms).toBeLessThan(3000); // took the lock over: no 4 s wait for a dead owner
    const state = expectDataWhole(box.data).states[S]!;
    expect(state.main.step).toBe(3);
    expect(
      logRecords(box.data, S)
        .filter((r) => r.event === "PreToolUse")
        .map((r) => r.toolUseId),
    ).toEqual(["toolu_1", "toolu_2", "toolu_4"]);
    expect(existsSync(lock)).toBe(false);
  });

  it("SIGKILL of a gated hook while it waits for its line under the lock: the same", async () => {
    // A gated skill seen for the first time inside the transaction makes the hook wait (up to 3 s)
    // for the call's line, holding the lock: kill it then.
    const gated = skillFolder(box, "gated", "utility_gated: true");
    const transcript = box.transcript(`${S}.jsonl`, [line.prompt("go")]);
    await prompt(S, transcript);
    expect(await runEntry("pre-tool-use", call(S, transcript, 1), box.env())).toMatchObject({ code: 0, stdout: "" });
    appendFileSync(transcript, jsonl([...line.assistant("m1", [use("toolu_1", "Bash")]), line.skill(gated)]));
    const lock = join(box.data, "state", `${S}.json.lock`);
    const killed = await runEntry("pre-tool-use", call(S, transcript, 3), box.env(), {
      onSpawn: (pid) => {
        const poll = setInterval(() => {
          if (existsSync(lock) && readFileSync(lock, "utf8").startsWith(`${pid} `)) {
            clearInterval(poll);
            setTimeout(() => process.kill(pid, "SIGKILL"), 100);
          }
        }, 2);
      },
    });
    expect(killed.signal).toBe("SIGKILL");
    appendFileSync(transcript, jsonl(line.assistant("m2", [text(GOOD("verify")), use("toolu_4", "Bash")])));
    const next = await runEntry("pre-tool-use", call(S, transcript, 4), box.env());
    expect(next).toMatchObject({ code: 0, stdout: NO_DECISION, stderr: "" });
    const state = expectDataWhole(box.data).states[S]!;
    expect(state.main).toMatchObject({ step: 2, refusals: 0 });
    expect(state.main.sources.map((s) => s.gated)).toEqual([true]);
  });

  const locks: Array<[string, (lock: string) => void]> = [
    ["the lock of a dead pid", (lock) => writeFileSync(lock, `${deadPid()} ${Date.now()}`)],
    [
      "an empty (torn) lock written long ago",
      (lock) => {
        writeFileSync(lock, "");
        utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      },
    ],
    ["an empty (torn) lock written just now", (lock) => writeFileSync(lock, "")],
    ["a garbage lock", (lock) => writeFileSync(lock, "\u0000\u0000garbage")],
    ["a live pid's lock older than the stale limit (pid reuse)", (lock) => writeFileSync(lock, `${process.pid} ${Date.now() - 60_000}`)],
  ];

  it.each(locks)("%s, with a half-written temp file beside the state: taken over, the state read whole", async (_name, plant) => {
    const transcript = box.transcript(`${S}.jsonl`, [line.prompt("go")]);
    await prompt(S, transcript);
    expect(await runEntry("pre-tool-use", call(S, transcript, 1), box.env())).toMatchObject({ code: 0, stdout: "" });
    const file = join(box.data, "state", `${S}.json`);
    plant(`${file}.lock`);
    writeFileSync(`${file}.${deadPid()}.tmp`, readFileSync(file, "utf8").slice(0, 40));
    const run = await runEntry("pre-tool-use", call(S, transcript, 2), box.env());
    // Taken over, not waited out: a lock the call gave up on would be named on stderr ("held by … for more than …").
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readState(box.data, S)!.main.step).toBe(2);
    expect(
      logRecords(box.data, S)
        .filter((r) => r.event === "PreToolUse")
        .map((r) => r.step),
    ).toEqual([1, 2]);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it.each([32])("%i hooks at once find a dead pid's lock: one takes it over, none loses a step", async (n) => {
    const transcript = box.transcript(`${S}.jsonl`, [line.prompt("go")]);
    await prompt(S, transcript);
    writeFileSync(join(box.data, "state", `${S}.json.lock`), `${deadPid()} ${Date.now()}`);
    const runs = await pool(n, n, (i) => runEntry("pre-tool-use", call(S, transcript, i), box.env(), { timeoutMs: 60_000 }));
    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readState(box.data, S)!.main.step).toBe(n);
    expect(logRecords(box.data, S).filter((r) => r.event === "PreToolUse")).toHaveLength(n);
  });
});

describe("two sessions in one project", () => {
  it("share the data folder and the transcript folder, and never mix their state or logs", async () => {
    const A = "aaaaaaaa-0000-4000-8000-000000000001";
    const B = "bbbbbbbb-0000-4000-8000-000000000002";
    // A's calls are in its transcript (no report before them), so no hook waits for its line.
    const ta = box.transcript(`${A}.jsonl`, [
      line.prompt("/utility on"),
      ...line.assistant(
        "m1",
        Array.from({ length: 24 }, (_, i) => use(`toolu_${2 * i}`, "Bash", { command: `echo ${2 * i}` })),
      ),
    ]);
    const tb = box.transcript(`${B}.jsonl`, [line.prompt("go")]);
    await Promise.all([prompt(A, ta, "/utility on"), prompt(B, tb, "go")]);
    const jobs = Array.from({ length: 48 }, (_, i) =>
      i % 2 === 0
        ? () => runEntry("pre-tool-use", call(A, ta, i), box.env(), { timeoutMs: 60_000 })
        : () => runEntry("pre-tool-use", call(B, tb, i), box.env(), { timeoutMs: 60_000 }),
    );
    const runs = await pool(jobs.length, jobs.length, (i) => jobs[i]!());
    runs.forEach((run, i) => {
      expect(run.code).toBe(0);
      expectOneLineStderr(run.stderr);
      if (i % 2 === 0)
        expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny"); // A is gated, no report
      else expect(run.stdout).toBe(""); // B is not
    });
    const whole = expectDataWhole(box.data);
    expect(whole.states[A]!).toMatchObject({ sessionId: A, manualGate: true, main: { step: 0, refusals: 24 } });
    expect(whole.states[B]!).toMatchObject({ sessionId: B, manualGate: false, main: { step: 24, refusals: 0 } });
    expect(logRecords(box.data, A).every((r) => r.session === A)).toBe(true);
    expect(logRecords(box.data, B).every((r) => r.session === B)).toBe(true);
    expect(logRecords(box.data, A).filter((r) => r.decision === "refused")).toHaveLength(24);
    expect(logRecords(box.data, B).filter((r) => r.event === "PreToolUse" && r.decision === "observed")).toHaveLength(24);
  });
});
