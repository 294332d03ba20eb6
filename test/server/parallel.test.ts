/**
 * SPEC §8 and §11, as test/hooks/parallel.test.ts for command hooks: 128
 * PreToolUse calls sent at once to the warm server (the bundled dist/server.js,
 * over stdio as Claude Code sends them) on one session lose no step and no
 * line: 128 whole log lines, 128 steps, each step number once.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NO_DECISION } from "../support/hook-output.js";
import { assistant, call, jsonl, meta, prompt, result, text } from "../transcript/helpers.js";
import { preToolUseArgs, SERVER, startServer } from "./client.js";

const N = 128;
const REPORT =
  'Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Run every check."';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-server-parallel-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** A gated skill with room for all the calls (the fixture "wide" allows 40 steps). */
const WIDE = join(scratch, "skills", "wider");
mkdirSync(WIDE, { recursive: true });
writeFileSync(
  join(WIDE, "SKILL.md"),
  `---\nname: wider\ndescription: Test skill, gated, room for ${N} steps.\nutility_gated: true\nutility_max_steps: ${N + 8}\n---\n\n# Wider\n`,
);

function session(name: string, gated: boolean) {
  const sessionId = `spar-${name}-${process.pid}`;
  const ids = Array.from({ length: N }, (_, i) => `toolu_spar_${name}_${i}`);
  const lines = [prompt("run all the checks")];
  if (gated) {
    lines.push(assistant("msg_skill", [call("toolu_skill", "Skill", { skill: "wider" })]));
    lines.push(result("toolu_skill", "Launching skill: wider"));
    lines.push(meta(`Base directory for this skill: ${WIDE}\n\n# Wider`));
    lines.push(assistant("msg_calls", [text(REPORT)]));
  }
  for (const id of ids) lines.push(assistant("msg_calls", [call(id, "Bash", { command: `echo ${id}` })]));
  const transcript = join(scratch, `${sessionId}.jsonl`);
  writeFileSync(transcript, jsonl(lines));
  const dataDir = join(scratch, `data-${name}`);
  const env = { PATH: process.env.PATH ?? "", HOME: scratch, UTILITY_DATA_DIR: dataDir };
  const args = ids.map((id) =>
    preToolUseArgs({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: scratch,
      tool_name: "Bash",
      tool_input: { command: `echo ${id}` },
      tool_use_id: id,
    }),
  );
  return {
    sessionId,
    ids,
    env,
    args,
    dataDir,
    log: join(dataDir, "sessions", `${sessionId}.jsonl`),
    state: join(dataDir, "state", `${sessionId}.json`),
  };
}

describe.each([
  ["ungated", false],
  ["gated", true],
] as const)(`%s: ${N} hook calls at once to one server`, (name, gated) => {
  it(`writes ${N} whole log lines and counts ${N} steps`, async () => {
    expect(existsSync(SERVER)).toBe(true);
    const s = session(name, gated);
    const server = await startServer(s.env);
    const answers = await Promise.all(s.args.map((a) => server.call("pre_tool_use", a)));
    expect(await server.close()).toBe(0);
    expect(server.stderr()).toBe("");
    for (const a of answers) {
      expect(a.isError).toBeUndefined();
      // Never a refusal, never an "allow"; a passed gated call may carry the utility: line.
      expect(a.content[0]!.text === "{}" ? "" : a.content[0]!.text).toEqual(gated ? NO_DECISION : "");
    }
    const log = readFileSync(s.log, "utf8");
    expect(log.endsWith("\n")).toBe(true);
    const records = log
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(N);
    expect(new Set(records.map((r) => r.toolUseId))).toEqual(new Set(s.ids));
    expect(records.map((r) => r.step).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    for (const r of records) {
      expect(r).toMatchObject({ event: "PreToolUse", session: s.sessionId, decision: gated ? "passed" : "observed", gated });
      if (gated) expect(r).toMatchObject({ gatedBy: join(WIDE, "SKILL.md"), maxSteps: N + 8 });
    }
    const state = JSON.parse(readFileSync(s.state, "utf8"));
    expect(state.main).toMatchObject({ step: N, refusals: 0 });
    expect(Object.keys(state.main.pending).sort()).toEqual([...s.ids].sort());
    expect(existsSync(join(s.dataDir, "errors.jsonl"))).toBe(false);
  }, 120_000);
});
