/**
 * The server's warm-up (src/server/warm-up.ts): a made-up session's calls,
 * answered in a private folder that is gone afterwards, through the same
 * handlers as real calls, gated and not.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { warmUp } from "../../src/server/warm-up.js";

function run(
  calls: number,
  more: { tmp?: string } = {},
): Promise<{ trouble: unknown; folder: string; records: Array<Record<string, unknown>>; files: string[] }> {
  return new Promise((resolve) => {
    let seen: { folder: string; records: Array<Record<string, unknown>>; files: string[] } | undefined;
    warmUp({
      calls,
      ...more,
      inspect: (folder) => {
        const data = join(folder, "data");
        const sessions = join(data, "sessions");
        const records = (existsSync(sessions) ? readdirSync(sessions) : []).flatMap((f) =>
          readFileSync(join(sessions, f), "utf8")
            .trimEnd()
            .split("\n")
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        );
        seen = { folder, records, files: existsSync(data) ? readdirSync(data) : [] };
      },
      done: (trouble) => resolve({ trouble, ...seen! }),
    });
  });
}

describe("the hook server's warm-up", () => {
  it("answers each call through the real handlers, gated and not, and leaves nothing behind", async () => {
    const { trouble, folder, records, files } = await run(12);
    expect(trouble).toBeUndefined();
    const steps = records.filter((r) => r.event === "PreToolUse");
    expect(steps).toHaveLength(12);
    // The gated session's calls passed the gate with their report, but for its sixth: a Read of the first's file
    // again, nothing written between, refused as an exact repeat. The other session's were observed.
    expect(steps.filter((r) => r.gated === true && r.decision === "passed")).toHaveLength(5);
    expect(steps.filter((r) => r.gated === true && r.decision === "refused").map((r) => r.rule)).toEqual(["exact_repeat"]);
    expect(steps.filter((r) => r.gated === false && r.decision === "observed")).toHaveLength(6);
    // No trouble: nothing went to its error log.
    expect(files).not.toContain("errors.jsonl");
    expect(existsSync(folder)).toBe(false);
  });

  it("ends at once, with nothing to remove, when it is asked for no call", async () => {
    const { trouble, folder } = await run(0);
    expect(trouble).toBeUndefined();
    expect(existsSync(folder)).toBe(false);
  });

  it("removes the folders left by warm-ups whose server was killed, and no other", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "utility-warm-up-test-"));
    try {
      const dead = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
      const folder = (name: string) => {
        mkdirSync(join(tmp, name, "data", "state"), { recursive: true });
        writeFileSync(join(tmp, name, "data", "state", "s.json"), "{}");
        return name;
      };
      const left = folder(`utility-warm-up-${dead}-AbC123`);
      const running = folder(`utility-warm-up-${process.ppid}-XyZ789`);
      const others = [folder("utility-warm-up-AbC123"), folder(`something-${dead}-else`), folder(`utility-warm-up-${dead}`)];
      // A link with a leftover's name (a model can make one in /tmp): the link goes, never what it points to.
      const target = mkdtempSync(join(tmpdir(), "utility-warm-up-target-"));
      writeFileSync(join(target, "keep.txt"), "the user's");
      symlinkSync(target, join(tmp, `utility-warm-up-${dead}-LiNk00`));
      const { trouble, folder: own } = await run(2, { tmp });
      expect(readFileSync(join(target, "keep.txt"), "utf8")).toBe("the user's");
      rmSync(target, { recursive: true, force: true });
      expect(trouble).toBeUndefined();
      expect(own.startsWith(join(realpathSync(tmp), `utility-warm-up-${process.pid}-`))).toBe(true);
      expect(readdirSync(tmp).sort()).toEqual([running, ...others].sort());
      expect(readdirSync(tmp)).not.toContain(left);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
