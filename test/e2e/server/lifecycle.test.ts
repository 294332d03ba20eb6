/**
 * The hook server's life in the real client (issue 21): a call made before it
 * has connected waits for it; two sessions in one project have a server each;
 * when Claude Code keeps it off (`--strict-mcp-config`, an organization's MCP
 * policy) every tool call is refused, and the user and the model are told why
 * and exactly how to go on.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunOk, type RunClaudeResult } from "../support/claude.js";
import { systemMessageTexts, text, toolUse } from "../support/scripted-model.js";
import { activate, expectPassed, expectRefused, gateRun, id, logOf, markerDir, ran, resultFor, touch } from "../gate/support.js";
import { canOverlayEtc, serverMarkers } from "./support.js";
import { keptOffMessage } from "../../../src/hooks/server-check.js";
import { PLUGIN_ROOT } from "../../support/paths.js";

/** What the model was told before its first turn: the system turns of its first request (hook context comes there). */
const toldBefore = (run: RunClaudeResult): string => systemMessageTexts(run.model.mainRequests()[0]!).join("\n");

const NOT_CONNECTED =
  /^PreToolUse:Bash hook error: \[plugin:utility:hooks\/pre_tool_use\]: failed; blocking because onFailure is "block"[^]*MCP server 'plugin:utility:hooks' not connected$/;

describe("a call made while the server is still starting", () => {
  const marks = markerDir();
  const ids = { first: id("slowfirst"), skill: id("slowskill"), noReport: id("slownoreport") };
  let ungated: RunClaudeResult;
  let gated: RunClaudeResult;

  beforeAll(async () => {
    // Held back 4 s: longer than the SessionStart hook waits for it, so the first call comes before it has connected.
    const env = { NODE_OPTIONS: `--require ${join(import.meta.dirname, "slow-start.cjs")}`, UTILITY_TEST_SERVER_DELAY_MS: "4000" };
    [ungated, gated] = await Promise.all([
      gateRun({ prompt: "tidy up", env, script: [[touch(join(marks, "first"), ids.first)], [text("Done.")]] }),
      gateRun({
        prompt: "why does test_parse fail?",
        env,
        script: [[{ ...activate(), id: ids.skill }], [touch(join(marks, "noreport"), ids.noReport)], [text("Stopped.")]],
      }),
    ]);
  });
  afterAll(() => {
    ungated?.cleanup();
    gated?.cleanup();
  });

  it("waits for the server, which decides it", () => {
    expectPassed(ungated, ids.first, "observed");
    expect(ran(join(marks, "first"))).toBe(true);
    expectRefused(gated, ids.noReport, "Bash", "no_report");
    expect(ran(join(marks, "noreport"))).toBe(false);
  });

  it("the SessionStart hook, tired of waiting, said it has not started, pointing at /mcp", () => {
    expect(toldBefore(ungated)).toContain(keptOffMessage("unknown", PLUGIN_ROOT, "utility@inline"));
  });
});

describe("two Claude Code sessions in one project", () => {
  const marks = markerDir();
  const cwd = markerDir();
  const ids = { a: [id("a1"), id("a2")], b: [id("b1"), id("b2")] };
  let a: RunClaudeResult;
  let b: RunClaudeResult;

  beforeAll(async () => {
    const session = (name: "a" | "b") =>
      gateRun({
        prompt: "tidy up",
        cwd,
        script: [
          [toolUse("Bash", { command: `sleep 1; touch ${join(marks, `${name}1`)}`, description: "d" }, ids[name][0])],
          [touch(join(marks, `${name}2`), ids[name][1])],
          [text("Done.")],
        ],
      });
    [a, b] = await Promise.all([session("a"), session("b")]);
  });
  afterAll(() => {
    a?.cleanup();
    b?.cleanup();
  });

  it("each has its own server, and each session's log holds its own calls", () => {
    for (const [run, mine] of [
      [a, ids.a],
      [b, ids.b],
    ] as const) {
      assertRunOk(run);
      for (const call of mine) expectPassed(run, call, "observed");
      expect(
        logOf(run)
          .filter((r) => r.event === "PreToolUse")
          .map((r) => r.toolUseId),
      ).toEqual(mine);
      expect(serverMarkers(run)).toHaveLength(1);
    }
    expect(serverMarkers(a)[0]!.pid).not.toBe(serverMarkers(b)[0]!.pid);
  });
});

describe("--strict-mcp-config keeps the server off", () => {
  const marks = markerDir();
  const ids = { call: id("strict"), read: id("strictread") };
  let run: RunClaudeResult;

  beforeAll(async () => {
    run = await gateRun({
      prompt: "tidy up",
      extraArgs: ["--strict-mcp-config"],
      script: [[touch(join(marks, "strict"), ids.call)], [toolUse("Read", { file_path: "/etc/hostname" }, ids.read)], [text("Blocked.")]],
    });
  });
  afterAll(() => run?.cleanup());

  it("every tool call is refused, ungated too, by Claude Code", () => {
    const requests = run.model.mainRequests();
    expect(resultFor(requests, ids.call).text).toMatch(NOT_CONNECTED);
    expect(resultFor(requests, ids.read).text).toContain("MCP server 'plugin:utility:hooks' not connected");
    expect(ran(join(marks, "strict"))).toBe(false);
    expect(assertRunOk(run).permission_denials.map((d) => d.tool_use_id)).toEqual([ids.call, ids.read]);
  });

  it("the model is told why, and what the user can do, before its first turn", () => {
    const told = toldBefore(run);
    expect(told).toContain(keptOffMessage("strict", PLUGIN_ROOT, "utility@inline"));
    expect(told).toContain("start Claude Code without --strict-mcp-config");
  });
});

describe.skipIf(!canOverlayEtc())(
  "an organization's MCP policy denies the server (managed settings, in a mount namespace of the run's own)",
  () => {
    const marks = markerDir();
    const ids = { call: id("policy") };
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-policy-")));
    let run: RunClaudeResult;

    beforeAll(async () => {
      mkdirSync(join(scratch, "upper", "claude-code"), { recursive: true });
      mkdirSync(join(scratch, "work"));
      writeFileSync(
        join(scratch, "upper", "claude-code", "managed-settings.json"),
        JSON.stringify({ deniedMcpServers: [{ serverName: "plugin:utility:hooks" }] }),
      );
      // /etc as it is, with /etc/claude-code/managed-settings.json laid over it, seen by this run only.
      const overlay = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${scratch}/upper,workdir=${scratch}/work /etc && exec "$@"`;
      run = await gateRun({
        prompt: "tidy up",
        wrap: ["unshare", "-m", "--propagation", "private", "sh", "-c", overlay, "sh"],
        script: [[touch(join(marks, "policy"), ids.call)], [text("Blocked.")]],
      });
    });
    afterAll(() => {
      run?.cleanup();
      rmSync(scratch, { recursive: true, force: true });
    });

    it("every tool call is refused, and the model is told it is the organization's policy, and what to ask for", () => {
      expect(resultFor(run.model.mainRequests(), ids.call).text).toMatch(NOT_CONNECTED);
      expect(ran(join(marks, "policy"))).toBe(false);
      const told = toldBefore(run);
      expect(told).toContain(keptOffMessage("policy", PLUGIN_ROOT, "utility@inline"));
      expect(told).toContain(`{"serverCommand": ["node", "${PLUGIN_ROOT}/dist/server.js"]}`);
    });
  },
);
