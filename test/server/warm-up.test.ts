/**
 * The server's warm-up (src/server/warm-up.ts): a made-up session's calls,
 * answered in a private folder that is gone afterwards, through the same
 * handlers as real calls, gated and not.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { warmUp } from "../../src/server/warm-up.js";
import { deadPid } from "../support/dead-pid.js";

function run(
  calls: number,
  more: { tmp?: string; alive?: (pid: number) => boolean } = {},
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

  describe("the folders left by warm-ups whose server was killed", () => {
    let tmp: string;
    let dead: number;
    beforeEach(() => {
      tmp = mkdtempSync(join(tmpdir(), "utility-warm-up-test-"));
      dead = deadPid();
    });
    afterEach(() => rmSync(tmp, { recursive: true, force: true }));
    /** A folder as a warm-up leaves it (mode 0700 by default), with a file inside. */
    const folder = (name: string, mode = 0o700) => {
      mkdirSync(join(tmp, name, "data", "state"), { recursive: true });
      writeFileSync(join(tmp, name, "data", "state", "s.json"), "{}");
      chmodSync(join(tmp, name), mode);
      return name;
    };

    it("are removed: only this user's own, made as mkdtemp makes them, of a pid that no longer runs", async () => {
      const left = folder(`utility-warm-up-${dead}-AbC123`);
      const running = folder(`utility-warm-up-${process.ppid}-XyZ789`);
      const unnamed = [folder("utility-warm-up-AbC123"), folder(`something-${dead}-else`), folder(`utility-warm-up-${dead}`)];
      // Others could have written into a folder anyone may enter and write: what it holds may be a planted link.
      const loose = folder(`utility-warm-up-${dead}-Open00`, 0o755);
      // A link with a leftover's name (anyone can make one in /tmp): left, and what it points to untouched.
      const target = mkdtempSync(join(tmpdir(), "utility-warm-up-target-"));
      writeFileSync(join(target, "keep.txt"), "the user's");
      const link = `utility-warm-up-${dead}-LiNk00`;
      symlinkSync(target, join(tmp, link));
      try {
        const { trouble, folder: own } = await run(2, { tmp });
        expect(trouble).toBeUndefined();
        expect(own.startsWith(join(realpathSync(tmp), `utility-warm-up-${process.pid}-`))).toBe(true);
        expect(readdirSync(tmp).sort()).toEqual([running, ...unnamed, loose, link].sort());
        expect(readdirSync(tmp)).not.toContain(left);
        expect(readFileSync(join(target, "keep.txt"), "utf8")).toBe("the user's");
      } finally {
        rmSync(target, { recursive: true, force: true });
      }
    });

    it("are all left in a temporary folder others may write that is not sticky", async () => {
      const left = folder(`utility-warm-up-${dead}-AbC123`);
      chmodSync(tmp, 0o777);
      const { trouble } = await run(2, { tmp });
      expect(trouble).toBeUndefined();
      expect(readdirSync(tmp)).toEqual([left]);
      chmodSync(tmp, 0o1777);
      await run(2, { tmp });
      expect(readdirSync(tmp)).toEqual([]);
    });

    it("that cannot be looked at are the warm-up's trouble, named as such", async () => {
      folder(`utility-warm-up-${dead}-AbC123`);
      const { trouble } = await run(2, {
        tmp,
        alive: () => {
          throw new Error("no process table");
        },
      });
      expect(String(trouble)).toContain("while removing the folders of killed warm-ups: no process table");
    });

    it.runIf(process.getuid?.() === 0)("are left when another user owns them", async () => {
      const theirs = folder(`utility-warm-up-${dead}-Th3irs`);
      chownSync(join(tmp, theirs), 65534, 65534);
      await run(2, { tmp });
      expect(readdirSync(tmp)).toEqual([theirs]);
    });
  });
});
