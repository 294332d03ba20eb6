import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendJsonLine, lastManualSwitch } from "../../src/state/log-file.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function logOf(lines: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), "utility-log-file-"));
  dirs.push(dir);
  const file = join(dir, "session.jsonl");
  writeFileSync(file, "");
  for (const line of lines) appendJsonLine(file, line);
  return file;
}

describe("lastManualSwitch", () => {
  it("reads the switch from the record's field, not from its reason text", () => {
    expect(lastManualSwitch(logOf([{ event: "UserPromptSubmit", switch: "on", reason: "anything" }]))).toBe("on");
    expect(lastManualSwitch(logOf([{ event: "UserPromptSubmit", switch: "on" }, { event: "UserPromptSubmit", switch: "off" }]))).toBe("off");
  });

  it("still reads a log written before the field, by its reason", () => {
    expect(lastManualSwitch(logOf([{ event: "UserPromptSubmit", reason: "/utility on" }]))).toBe("on");
  });

  it("ignores other events and prompts that switched nothing", () => {
    const file = logOf([{ event: "UserPromptSubmit", switch: "on" }, { event: "PreToolUse", switch: "off" }, { event: "UserPromptSubmit", reason: "/utility (same task)" }]);
    expect(lastManualSwitch(file)).toBe("on");
    expect(lastManualSwitch(logOf([{ event: "UserPromptSubmit" }]))).toBeUndefined();
  });
});
