/**
 * The bundled hook server as Claude Code runs it (dist/server.js over stdio):
 * what it refuses, and what it keeps on disk for the CLI, a restart and a
 * command hook of the same session.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assistant, call, jsonl, meta, prompt, result, text } from "../transcript/helpers.js";
import { hookServer } from "../../src/server/serve.js";
import { preToolUseArgs, startServer } from "./client.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { userSettings } from "../../src/hooks/settings.js";
import { FileStateStore } from "../../src/state/store.js";
import { statusLine } from "../../src/statusline/line.js";
import { lineFilePath, parseLineFile } from "../../src/statusline/line-file.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-server-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const SKILL = join(scratch, "skills", "gated");
mkdirSync(SKILL, { recursive: true });
writeFileSync(
  join(SKILL, "SKILL.md"),
  "---\nname: gated\ndescription: Test skill, gated.\nutility_gated: true\nutility_max_steps: 50\n---\n\n# Gated\n",
);
const REPORT = 'Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Check."';

let n = 0;
/** A session (gated or not) whose last message makes `calls` Bash calls under one report. */
function session(gated: boolean, calls: number) {
  const sessionId = `srv-${++n}-${process.pid}`;
  const ids = Array.from({ length: calls }, (_, i) => `toolu_srv_${n}_${i}`);
  const lines = [prompt("check it")];
  if (gated) {
    lines.push(assistant("msg_skill", [call("toolu_skill", "Skill", { skill: "gated" })]));
    lines.push(result("toolu_skill", "Launching skill: gated"));
    lines.push(meta(`Base directory for this skill: ${SKILL}\n\n# Gated`));
  }
  lines.push(assistant("msg_calls", [text(REPORT)]));
  for (const id of ids) lines.push(assistant("msg_calls", [call(id, "Bash", { command: `echo ${id}` })]));
  const transcript = join(scratch, `${sessionId}.jsonl`);
  writeFileSync(transcript, jsonl(lines));
  const dataDir = join(scratch, `data-${n}`);
  const env = { PATH: process.env.PATH ?? "", HOME: scratch, UTILITY_DATA_DIR: dataDir };
  const input = (id: string, tool = "Bash") =>
    preToolUseArgs({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: scratch,
      tool_name: tool,
      tool_input: { command: `echo ${id}` },
      tool_use_id: id,
    });
  const records = () =>
    readFileSync(join(dataDir, "sessions", `${sessionId}.jsonl`), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
  return { sessionId, ids, env, input, dataDir, records, state: join(dataDir, "state", `${sessionId}.json`) };
}

const decision = (answer: { content: { text: string }[] }) => JSON.parse(answer.content[0]!.text)?.hookSpecificOutput?.permissionDecision;

describe("the hook server", () => {
  it("refuses the model's own call of its tools (Claude Code marks it in _meta) and writes nothing", async () => {
    const s = session(false, 1);
    const server = await startServer(s.env);
    const answer = await server.call("pre_tool_use", s.input(s.ids[0]!), { "claudecode/toolUseId": "toolu_model" });
    expect(answer).toEqual({
      isError: true,
      content: [{ type: "text", text: "pre_tool_use answers Claude Code's hooks only; the model may not call it." }],
    });
    expect((await server.request("tools/list")).tools).toEqual([]);
    expect(await server.call("no_such_tool", {})).toMatchObject({ isError: true });
    await server.close();
    expect(existsSync(join(s.dataDir, "sessions"))).toBe(false);
  });

  it("refuses a PreToolUse of its own tools in an ungated scope too, and logs it (SPEC §6)", async () => {
    const s = session(false, 1);
    const server = await startServer(s.env);
    const answer = await server.call("pre_tool_use", s.input(s.ids[0]!, "mcp__plugin_utility_hooks__pre_tool_use"));
    await server.close();
    expect(decision(answer)).toBe("deny");
    expect(s.records()).toEqual([expect.objectContaining({ decision: "refused", rule: "own_tool", gated: false })]);
  });

  it("says it started: a marker for Claude Code's process (its parent), and the markers of processes gone are removed", async () => {
    const s = session(false, 0);
    mkdirSync(join(s.dataDir, "servers"), { recursive: true });
    writeFileSync(join(s.dataDir, "servers", "999999999.json"), "{}");
    const server = await startServer({ ...s.env, CLAUDE_PID: "123456" });
    await server.close();
    expect(JSON.parse(readFileSync(join(s.dataDir, "servers", "123456.json"), "utf8"))).toMatchObject({ claudePid: 123456 });
    expect(existsSync(join(s.dataDir, "servers", "999999999.json"))).toBe(false);
  });

  it("a second server (Claude Code started it again) writing while the first still runs: each goes on from what the other wrote, no step lost or counted twice", async () => {
    const s = session(true, 3);
    const first = await startServer(s.env);
    expect(decision(await first.call("pre_tool_use", s.input(s.ids[0]!)))).toBeUndefined();
    const second = await startServer(s.env);
    expect(decision(await second.call("pre_tool_use", s.input(s.ids[1]!)))).toBeUndefined();
    await second.close();
    expect(decision(await first.call("pre_tool_use", s.input(s.ids[2]!)))).toBeUndefined();
    await first.close();
    expect(s.records().map((r) => [r.toolUseId, r.step, r.decision])).toEqual(s.ids.map((id, i) => [id, i + 1, "passed"]));
  });

  it("reads the state again when it changed under it: a state broken between two calls refuses the gated call", async () => {
    const s = session(true, 2);
    const server = await startServer(s.env);
    expect(decision(await server.call("pre_tool_use", s.input(s.ids[0]!)))).toBeUndefined();
    writeFileSync(s.state, "{ not json");
    const answer = await server.call("pre_tool_use", s.input(s.ids[1]!));
    await server.close();
    expect(decision(answer)).toBe("deny");
    expect(answer.content[0]!.text).toContain("the gate's state cannot be read");
  });

  it("input it cannot use decides nothing, goes to the error log, and the server goes on", async () => {
    const s = session(false, 1);
    const server = await startServer(s.env);
    const bad = await server.call("pre_tool_use", { ...s.input(s.ids[0]!), session_id: "" });
    expect(bad).toEqual({ content: [{ type: "text", text: "{}" }] });
    expect(decision(await server.call("pre_tool_use", s.input(s.ids[0]!)))).toBeUndefined();
    await server.close();
    expect(readFileSync(join(s.dataDir, "errors.jsonl"), "utf8")).toContain("session_id");
  });
});

describe("the hook server answers an ungated call before writing what it leaves (SPEC §11)", () => {
  const logFile = (s: ReturnType<typeof session>) => join(s.dataDir, "sessions", `${s.sessionId}.jsonl`);
  const ask = (server: ReturnType<typeof hookServer>, s: ReturnType<typeof session>, id: string) =>
    server.callTool({ name: "pre_tool_use", arguments: s.input(id), meta: undefined });

  it("ungated: the answer comes with the state's lock held and nothing written; settle writes the state, the log line and frees the lock", async () => {
    const s = session(false, 2);
    const server = hookServer(s.env);
    expect(decision(await ask(server, s, s.ids[0]!))).toBeUndefined();
    expect(existsSync(logFile(s))).toBe(false);
    expect(existsSync(s.state)).toBe(false);
    expect(existsSync(`${s.state}.lock`)).toBe(true);
    server.settle();
    expect(existsSync(`${s.state}.lock`)).toBe(false);
    expect(s.records().map((r) => [r.toolUseId, r.step, r.decision])).toEqual([[s.ids[0], 1, "observed"]]);
    // The next call settles what the last left, should the transport not have.
    await ask(server, s, s.ids[1]!);
    await ask(server, s, "toolu_third");
    expect(s.records().map((r) => r.step)).toEqual([1, 2]);
    server.settle();
    expect(s.records().map((r) => r.step)).toEqual([1, 2, 3]);
  });

  it("a call that comes while another is answered starts once that answer has gone out, not in the microtasks before", async () => {
    const s = session(false, 2);
    const server = hookServer(s.env);
    const first = ask(server, s, s.ids[0]!);
    const second = ask(server, s, s.ids[1]!);
    // A transport writes an answer some microtasks after it resolves (protocol.ts's layers): here, ten.
    let written: Promise<unknown> = first;
    for (let i = 0; i < 10; i++) written = written.then((x) => x);
    await written;
    // The second call has not begun: it would first write what the first left (the state, the log line).
    expect(existsSync(logFile(s))).toBe(false);
    expect(existsSync(`${s.state}.lock`)).toBe(true);
    await second;
    server.settle();
    expect(s.records().map((r) => [r.toolUseId, r.step])).toEqual([
      [s.ids[0], 1],
      [s.ids[1], 2],
    ]);
  });

  it("ungated: a record written after the answer gives the time the call took to decide, not the time until it was written", async () => {
    const s = session(false, 1);
    const server = hookServer(s.env);
    await ask(server, s, s.ids[0]!);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); // the answer's way to Claude Code, and more
    server.settle();
    expect(s.records()[0]!.latencyMs).toBeLessThan(300);
  });

  it("gated: the answer comes only once the state and the log line are written", async () => {
    const s = session(true, 1);
    const server = hookServer(s.env);
    expect(decision(await ask(server, s, s.ids[0]!))).toBeUndefined();
    expect(existsSync(`${s.state}.lock`)).toBe(false);
    expect(s.records().map((r) => [r.toolUseId, r.decision])).toEqual([[s.ids[0], "passed"]]);
  });

  it("a late write that fails goes to the error log, frees the lock, and the next call is answered", async () => {
    const s = session(false, 2);
    const server = hookServer(s.env);
    await ask(server, s, s.ids[0]!);
    const planted = join(`${s.state}.${process.pid}.tmp`, "x");
    mkdirSync(planted, { recursive: true });
    server.settle();
    expect(readFileSync(join(s.dataDir, "errors.jsonl"), "utf8")).toContain("after its answer, cannot keep the state file");
    expect(existsSync(`${s.state}.lock`)).toBe(false);
    rmSync(join(planted, ".."), { recursive: true });
    expect(decision(await ask(server, s, s.ids[1]!))).toBeUndefined();
    server.settle();
    expect(s.records().map((r) => r.toolUseId)).toEqual(s.ids);
  });

  it("a server gone between an answer and its writes loses that step's record, not the spend the transcript shows", async () => {
    const s = session(false, 2);
    const transcript = join(scratch, `${s.sessionId}.jsonl`);
    const lines = readFileSync(transcript, "utf8").replaceAll(
      '"role":"assistant",',
      '"role":"assistant","usage":{"input_tokens":10,"output_tokens":5},',
    );
    writeFileSync(transcript, lines);
    const first = hookServer(s.env);
    await ask(first, s, s.ids[0]!);
    rmSync(`${s.state}.lock`); // the first server died holding it: the next takes a dead pid's lock over
    const second = hookServer(s.env);
    await ask(second, s, s.ids[1]!);
    second.settle();
    expect(s.records().map((r) => [r.toolUseId, r.step])).toEqual([[s.ids[1], 1]]);
    const state = JSON.parse(readFileSync(s.state, "utf8"));
    expect(state.spend.tokens).toMatchObject({ input: 10, output: 5 });
  });

  it("a log line that cannot be written after the answer goes to the error log", async () => {
    const s = session(false, 1);
    mkdirSync(logFile(s), { recursive: true }); // a folder where the session's log goes
    const server = hookServer(s.env);
    expect(decision(await ask(server, s, s.ids[0]!))).toBeUndefined();
    expect(existsSync(join(s.dataDir, "errors.jsonl"))).toBe(false);
    server.settle();
    expect(readFileSync(join(s.dataDir, "errors.jsonl"), "utf8")).toContain("the step log cannot be written (EISDIR)");
  });
});

describe("the status line the server keeps (plugin/statusline.sh prints it)", () => {
  const ask = (server: ReturnType<typeof hookServer>, s: ReturnType<typeof session>, id: string) =>
    server.callTool({ name: "pre_tool_use", arguments: s.input(id), meta: undefined });
  const lineOf = (s: ReturnType<typeof session>) => parseLineFile(readFileSync(lineFilePath(s.dataDir, s.sessionId), "utf8"));
  const expected = (s: ReturnType<typeof session>, env: Record<string, string | undefined> = s.env) =>
    statusLine(new FileStateStore(s.dataDir).read(s.sessionId), {
      prices: DEFAULT_PRICES,
      userBudgets: userSettings(env).budgets,
      sessionBudgets: userSettings(env).session,
    });

  it("ungated: written after the answer and the state it left, by settle, never before the answer goes out", async () => {
    const s = session(false, 2);
    const server = hookServer(s.env);
    await ask(server, s, s.ids[0]!);
    expect(existsSync(lineFilePath(s.dataDir, s.sessionId))).toBe(false);
    server.settle();
    const file = lineOf(s)!;
    expect(file.serverPid).toBe(process.pid);
    expect(file.line).toBe(expected(s));
    expect(file.line).toMatch(/^utility · task 1 step 1 · .* · not gated$/);
    expect(Math.abs(file.writtenAt.getTime() - Date.now())).toBeLessThan(5_000);
    // Not older than the state it shows: the script's freshness test (the state file not newer than the line).
    expect(statSync(lineFilePath(s.dataDir, s.sessionId)).mtimeMs).toBeGreaterThanOrEqual(statSync(s.state).mtimeMs);
    await ask(server, s, s.ids[1]!);
    server.settle();
    expect(lineOf(s)!.line).toMatch(/^utility · task 1 step 2 · /);
  });

  it("gated: the line says so, with the step against the skill's limit", async () => {
    const s = session(true, 1);
    const server = hookServer(s.env);
    await ask(server, s, s.ids[0]!);
    server.settle();
    expect(lineOf(s)!.line).toBe(expected(s));
    expect(lineOf(s)!.line).toMatch(/^utility · task 1 step 1\/50 · .* · gated \(gated\) · last verify$/);
  });

  it("shows the user's budgets in force, and the session's spend against a session budget when one is set", async () => {
    const s = session(false, 1);
    const env = { ...s.env, CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "500000", CLAUDE_PLUGIN_OPTION_SESSION_TOKEN_BUDGET: "200" };
    const server = hookServer(env);
    await ask(server, s, s.ids[0]!);
    server.settle();
    const line = lineOf(s)!.line;
    expect(line).toBe(expected(s, env));
    expect(line).toMatch(/ · \d+\/500k tok · /);
    expect(line).toMatch(/ · session \d+\/200 tok( SPENT)? · /);
  });

  it("a line that cannot be written is one line in the error log; the answers go on", async () => {
    const s = session(false, 2);
    mkdirSync(s.dataDir, { recursive: true });
    writeFileSync(join(s.dataDir, "statusline"), "a file where the folder goes");
    const server = hookServer(s.env);
    await ask(server, s, s.ids[0]!);
    server.settle();
    expect(readFileSync(join(s.dataDir, "errors.jsonl"), "utf8")).toContain("the status line cannot be written");
    await ask(server, s, s.ids[1]!);
    server.settle();
    expect(s.records().map((r) => r.step)).toEqual([1, 2]);
  });
});
