/**
 * SPEC §10, hostile identifiers: session ids, agent ids, agent types, skill
 * folders and tool-use ids with `../`, absolute paths, NUL bytes, very long
 * names and Unicode. Every bundled hook runs as a real process; the whole
 * sandbox is listed before and after, and nothing outside the data folder
 * may be created, changed or removed. Bait files sit where a traversal would
 * land: a gated state and a gated agent definition; reading either would
 * make the hook refuse, so a silent stdout proves they were not read.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSession } from "../../src/engine/session/state.js";
import {
  ENTRIES,
  EVENT_OF,
  GOOD,
  expectDataWhole,
  expectOneLineStderr,
  expectValidOutput,
  hookInput,
  jsonl,
  line,
  pool,
  runEntry,
  sandbox,
  text,
  tree,
  treeDiff,
  use,
  type EntryFile,
  type Sandbox,
} from "./support.js";

let box: Sandbox;
let before: Map<string, string>;
let transcript: string;
const SESSION = "0b1c2d3e-0000-4000-8000-00000000abcd";

/** Ids that name a path outside the data folder, or could break a file name, or a lookup by key. */
function hostileIds(root: string): Array<[string, string]> {
  return [
    ["parent traversal", "../../outside/victim"],
    ["traversal into the state folder", "../state/other"],
    ["deep traversal", "../".repeat(40) + "tmp/victim"],
    ["an absolute path", join(root, "outside", "victim")],
    ["/etc/passwd", "/etc/passwd"],
    ["a slash", "a/b"],
    ["a backslash traversal", "..\\..\\outside\\victim"],
    ["dot", "."],
    ["dot dot", ".."],
    ["a hidden name", ".hidden"],
    ["a NUL byte", `ok\u0000/../../outside/victim`],
    ["a newline", "a\nb"],
    ["129 characters", "a".repeat(129)],
    ["10 000 characters", "a".repeat(10_000)],
    ["non-ASCII letters", "séance-ü"],
    ["full-width look-alikes", "ｓｅｓｓｉｏｎ"],
    ["a right-to-left override", "abc\u202etxt.json"],
    ["an emoji", "sess-🙂"],
    ["URL-encoded traversal", "%2e%2e%2foutside%2fvictim"],
    ["__proto__", "__proto__"],
    ["a space", "a b"],
  ];
}

beforeAll(() => {
  box = sandbox("utility-ids-");
  // Bait where a traversal would land: a gated state, a log and a gated agent definition.
  const gated = { ...newSession("victim"), manualGate: true };
  box.file("outside/victim.json", JSON.stringify(gated));
  box.file("outside/victim.jsonl", "");
  box.file("tmp/victim.json", JSON.stringify(gated));
  box.file("outside/agents/bait.md", "---\nname: bait\ndescription: bait\nutility_gated: true\n---\nbait\n");
  mkdirSync(join(box.home, ".claude", "plugins", "cache", "mkt"), { recursive: true });
  transcript = box.transcript(`${SESSION}.jsonl`, [
    line.prompt("go"),
    ...line.assistant("msg_1", [text("no report"), use("toolu_01", "Bash", { command: "echo one" })]),
  ]);
  before = tree(box.root);
});
afterAll(() => box.remove());

/** Transcripts this test itself wrote after the first listing. */
const written = new Set<string>();
function writeTranscript(name: string, lines: string[]): string {
  const path = box.transcript(name, lines);
  written.add(`added ${path.slice(box.root.length + 1)}`);
  return path;
}

/** Nothing outside the data folder changed, and the data folder holds only well-formed, safely named files. */
function expectConfined(): void {
  const changes = treeDiff(before, tree(box.root));
  expect(changes.filter((c) => !/^(added|changed) data(\/|$)/.test(c) && !written.has(c))).toEqual([]);
  expectDataWhole(box.data);
}

describe("hostile session ids", () => {
  it.each(ENTRIES.map((e) => e.file))(
    "%s: every hostile id is refused by name, nothing read or written outside the data folder",
    async (entry) => {
      const ids = hostileIds(box.root);
      const runs = await pool(ids.length, 4, (i) =>
        runEntry(entry, JSON.stringify(hookInput(entry, { session: ids[i]![1], transcript })), box.env()),
      );
      runs.forEach((run, i) => {
        const what = ids[i]![0];
        expect(run.code, what).toBe(0);
        expect(run.stdout, what).toBe(""); // no bait state was read: it would have gated and refused
        expectOneLineStderr(run.stderr);
        expect(run.stderr, what).toMatch(/session.id .* is not a safe id|session_id/);
      });
      expectConfined();
    },
  );
});

describe("hostile agent ids", () => {
  it.each(ENTRIES.map((e) => e.file).filter((e) => e !== "user-prompt-submit" && e !== "user-prompt-expansion" && e !== "session-end"))(
    "%s: every hostile agent id is refused by name, nothing outside the data folder",
    async (entry) => {
      const ids = hostileIds(box.root);
      const runs = await pool(ids.length, 4, (i) =>
        runEntry(entry, JSON.stringify(hookInput(entry, { session: SESSION, transcript, agentId: ids[i]![1] })), box.env()),
      );
      runs.forEach((run, i) => {
        const what = ids[i]![0];
        expect(run.code, what).toBe(0);
        expect(run.stdout, what).toBe("");
        expectOneLineStderr(run.stderr);
        expect(run.stderr, what).toMatch(/agent id .* is not a safe id/);
      });
      expectConfined();
    },
  );

  it.each(["user-prompt-submit", "session-end"] as const)(
    "%s ignores agent_id (a prompt, a session's end, are the main scope's)",
    async (entry) => {
      const run = await runEntry(
        entry,
        JSON.stringify(hookInput(entry, { session: SESSION, transcript, agentId: "../../outside/victim" })),
        box.env(),
      );
      expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
      expectConfined();
    },
  );

  it("user-prompt-expansion ignores agent_id (a typed command is the main scope's): it answers for the session", async () => {
    const run = await runEntry(
      "user-prompt-expansion",
      JSON.stringify(hookInput("user-prompt-expansion", { session: SESSION, transcript, agentId: "../../outside/victim" })),
      box.env(),
    );
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout).reason).toMatch(new RegExp(`^utility status, session ${SESSION}\n`));
    expectConfined();
  });
});

describe("hostile agent types (subagent definitions are looked up by type)", () => {
  const types = (root: string) => [
    "../../../../../outside:bait",
    "../../../../../../../../../../outside:bait",
    `${root}/outside:bait`,
    "mkt/../../../../../outside:bait",
    "bait\u0000:bait",
    "x".repeat(5000) + ":bait",
    "ｂａｉｔ:bait",
    "../../../../../outside",
    "bait",
  ];

  it("never reads a definition outside the folders Claude Code reads (the bait is gated: reading it would refuse)", async () => {
    const list = types(box.root);
    const runs = await pool(list.length, 4, (i) =>
      runEntry(
        "pre-tool-use",
        JSON.stringify(
          hookInput(
            "pre-tool-use",
            { session: SESSION, transcript, agentId: `a${i}`, agentType: list[i]! },
            { tool_use_id: `toolu_t${i}` },
          ),
        ),
        box.env(),
        { cwd: box.project },
      ),
    );
    runs.forEach((run, i) => {
      expect(run.code, list[i]).toBe(0);
      expect(run.stdout, list[i]).toBe("");
      expect(run.stderr, list[i]).toBe("");
    });
    expectConfined();
  });
});

describe("hostile skill folders in the transcript", () => {
  const folders = (root: string) => [
    "../../outside",
    join(root, "outside"),
    "/",
    "/dev",
    `${root}/outside\u0000/etc`,
    "a".repeat(5000),
    `${root}/${"x/".repeat(2000)}`,
    "ｓｋｉｌｌ",
    "~/.claude/skills/x",
  ];

  it.each(ENTRIES.map((e) => e.file))("%s: no crash, no write outside the data folder", async (entry) => {
    const list = folders(box.root);
    const runs = await pool(list.length, 4, async (i) => {
      const session = `skills-${entry}-${i}`;
      const t = writeTranscript(`${session}.jsonl`, [
        line.prompt("go"),
        line.skill(list[i]!),
        ...line.assistant(`msg_${i}`, [text(GOOD("verify")), use("toolu_01", "Bash", { command: "echo one" })]),
      ]);
      return runEntry(entry, JSON.stringify(hookInput(entry, { session, transcript: t })), box.env(), { cwd: box.project });
    });
    runs.forEach((run, i) => {
      expect(run.code, list[i]).toBe(0);
      expectOneLineStderr(run.stderr);
      expect(run.stderr, list[i]).toBe("");
      expectValidOutput(EVENT_OF[entry as EntryFile], run.stdout);
    });
    expectConfined();
  });
});

describe("hostile tool-use ids (keys of the state, never paths)", () => {
  const ids = [
    "../../outside/victim",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "a\u0000b",
    "x".repeat(10_000),
    "ｔｏｏｌ",
  ];

  /** Each call: Claude Code writes its line, runs PreToolUse, then writes its result (no hook runs after a call); a stop reads the last. */
  async function callsWithIds(session: string, list: readonly string[]): Promise<void> {
    const t = writeTranscript(`${session}.jsonl`, [line.prompt("go")]);
    await runEntry("user-prompt-submit", JSON.stringify(hookInput("user-prompt-submit", { session, transcript: t })), box.env());
    for (const [i, id] of list.entries()) {
      appendFileSync(t, jsonl(line.assistant(`msg_${i}`, [use(id, "Bash", { command: `echo ${i}` })])));
      const run = await runEntry(
        "pre-tool-use",
        JSON.stringify(hookInput("pre-tool-use", { session, transcript: t }, { tool_use_id: id, tool_input: { command: `echo ${i}` } })),
        box.env(),
      );
      expect(run, id).toMatchObject({ code: 0, stdout: "", stderr: "" });
      appendFileSync(t, jsonl([line.result(id, `${i}`)]));
    }
    const stop = await runEntry("stop", JSON.stringify(hookInput("stop", { session, transcript: t })), box.env());
    expect(stop).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const state = expectDataWhole(box.data).states[session]!;
    expect(state.main.step).toBe(list.length);
    expect(state.main.history.map((h) => h.toolUseId)).toEqual(list);
    expect(state.main.pending).toEqual({});
    expect(Object.getPrototypeOf(state.main.pending)).toBe(Object.prototype);
    expectConfined();
  }

  it("PreToolUse, then the result line the next hook reads, keep every call, whatever its id", async () => {
    await callsWithIds(
      "tool-ids",
      ids.filter((id) => id !== "__proto__"),
    );
  });

  // pending["__proto__"] = call would set the object's prototype, and the schema drops such a key on reading:
  // the reducer keeps ids under idKey (src/engine/session/scope-copy.ts).
  it('a call whose tool_use_id is "__proto__" is kept like any other', async () => {
    await callsWithIds("tool-id-proto", ["toolu_before", "__proto__", "toolu_after"]);
  });
});
