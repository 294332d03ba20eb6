import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LogInputError, latestSessionLog, loadSessionLog, parseLogText, resolveSessionLog } from "../../src/summary/load.js";
import { dataDirs } from "../../src/state/locate.js";
import { tempDir, type TempDir } from "../transcript/helpers.js";

const RECORD = JSON.stringify({
  v: 1,
  time: "2026-01-01T00:00:00.000Z",
  event: "UserPromptSubmit",
  session: "s",
  scope: "self",
  task: 1,
  step: 0,
  maxSteps: 10,
  lambdas: [1, 0.5, 0.8],
  decision: "observed",
  gated: false,
  latencyMs: 1,
});

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

function writeLog(data: string, id: string, ageSeconds: number): string {
  mkdirSync(join(data, "sessions"), { recursive: true });
  const file = join(data, "sessions", `${id}.jsonl`);
  writeFileSync(file, `${RECORD}\n`);
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(file, t, t);
  return file;
}

describe("parseLogText", () => {
  it("keeps records, skips and counts anything else", () => {
    expect(parseLogText(`${RECORD}\n\nnot json\n{"v":1}\n${RECORD}\n{"v":1,"ti`)).toMatchObject({
      records: [{ event: "UserPromptSubmit" }, { event: "UserPromptSubmit" }],
      skipped: 3,
    });
  });
});

describe("which log a SESSION names", () => {
  it("UTILITY_DATA_DIR alone when set; else the plugin data folders Claude Code uses", () => {
    expect(dataDirs({ UTILITY_DATA_DIR: "/d" })).toEqual(["/d"]);
    mkdirSync(join(dir.path, ".claude", "plugins", "data", "utility-inline"), { recursive: true });
    mkdirSync(join(dir.path, ".claude", "plugins", "data", "other"), { recursive: true });
    expect(dataDirs({ HOME: dir.path })).toEqual([
      join(dir.path, ".claude", "plugins", "data", "utility"),
      join(dir.path, ".claude", "plugins", "data", "utility-inline"),
    ]);
    expect(dataDirs({ HOME: dir.path, CLAUDE_PLUGIN_DATA: "/p" })[0]).toBe("/p");
  });

  it("CLAUDE_CONFIG_DIR moves Claude Code's folder, the plugins' data with it (red-team pass 9)", () => {
    const config = join(dir.path, "config");
    mkdirSync(join(config, "plugins", "data", "utility-inline"), { recursive: true });
    expect(dataDirs({ HOME: dir.path, CLAUDE_CONFIG_DIR: config })).toEqual([
      join(config, "plugins", "data", "utility"),
      join(config, "plugins", "data", "utility-inline"),
    ]);
  });

  it("no SESSION: the most recently written log", () => {
    const data = join(dir.path, "data");
    writeLog(data, "old", 100);
    const recent = writeLog(data, "recent", 5);
    writeLog(data, "older", 1000);
    expect(latestSessionLog({ UTILITY_DATA_DIR: data })).toBe(recent);
    expect(resolveSessionLog(undefined, { UTILITY_DATA_DIR: data }, dir.path)).toBe(recent);
    expect(() => resolveSessionLog(undefined, { UTILITY_DATA_DIR: join(dir.path, "empty") }, dir.path)).toThrow(
      /no session logs in .*empty\/sessions/,
    );
  });

  it("a session id, looked up in the data folders; a path, as given", () => {
    const data = join(dir.path, "data");
    const file = writeLog(data, "abc-123", 1);
    expect(resolveSessionLog("abc-123", { UTILITY_DATA_DIR: data }, "/")).toBe(file);
    expect(resolveSessionLog("data/sessions/abc-123.jsonl", {}, dir.path)).toBe(file);
    expect(loadSessionLog(file, {}, "/").records).toHaveLength(1);
    expect(() => resolveSessionLog("nope", { UTILITY_DATA_DIR: data }, dir.path)).toThrow(/no log for session nope/);
    expect(() => resolveSessionLog("missing.jsonl", {}, dir.path)).toThrow(/cannot read missing\.jsonl: no file or folder at this path\.$/);
    expect(() => resolveSessionLog("..evil", { UTILITY_DATA_DIR: data }, dir.path)).toThrow(LogInputError);
    expect(() => resolveSessionLog("..evil", { UTILITY_DATA_DIR: data }, dir.path)).toThrow(/not a safe id/);
  });
});
