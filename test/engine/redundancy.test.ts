// SPEC §7: exact repeats the code can prove, and only those.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CYCLE_MARKER,
  canonicalJson,
  effectOf,
  findExactRepeat,
  inputDigest,
  normalizePath,
  type RanCall,
} from "../../src/engine/redundancy.js";

interface Call {
  tool: string;
  input: unknown;
  failed?: boolean;
}

const call = (tool: string, input: unknown): Call => ({ tool, input });
const failed = (tool: string, input: unknown): Call => ({ tool, input, failed: true });

/** The history the hooks keep: each call that ran, oldest first. */
function ran(calls: readonly Call[]): RanCall[] {
  return calls.map((c, i) => ({
    tool: c.tool,
    digest: canonicalJson(c.input),
    effect: effectOf(c.tool, c.input),
    at: i + 1,
    ...(c.failed ? { failed: true } : {}),
  }));
}

/** Is `next` an exact repeat after `before` ran (and while `running` are still out)? Returns the position (1-based) of the call it repeats. */
function repeatAt(before: readonly Call[], next: Call, running: readonly Call[] = []): number | undefined {
  const inFlight = ran(running).map((r) => ({ ...r, at: r.at + before.length }));
  return findExactRepeat(
    ran(before),
    { tool: next.tool, digest: canonicalJson(next.input), effect: effectOf(next.tool, next.input) },
    inFlight,
  )?.previous.at;
}

const read = (path: string) => call("Read", { file_path: path });
const edit = (path: string) => call("Edit", { file_path: path, old_string: "a", new_string: "b" });
const write = (path: string) => call("Write", { file_path: path, content: "x" });
const bash = (command: string) => call("Bash", { command });
const TEST = bash("npm test");

describe("effectOf: what a call may change or read", () => {
  it("classifies the tools of SPEC §6 and §7", () => {
    expect(effectOf("Read", { file_path: "/a" })).toEqual({ kind: "read", paths: ["/a"] });
    expect(effectOf("Grep", { pattern: "x", path: "/src" })).toEqual({ kind: "read", paths: ["/src"] });
    expect(effectOf("Glob", { pattern: "**/*.ts" })).toEqual({ kind: "read", paths: [] });
    expect(effectOf("WebFetch", { url: "https://x" })).toEqual({ kind: "read", paths: [] });
    expect(effectOf("Edit", { file_path: "/a" })).toEqual({ kind: "write", paths: ["/a"] });
    expect(effectOf("NotebookEdit", { notebook_path: "/n.ipynb" })).toEqual({ kind: "write", paths: ["/n.ipynb"] });
    expect(effectOf("Bash", { command: "ls" })).toEqual({ kind: "exec" });
    expect(effectOf("mcp__db__query", { sql: "select 1" })).toEqual({ kind: "exec" });
    expect(effectOf("BashOutput", { bash_id: "b1" })).toEqual({ kind: "poll" });
    expect(effectOf("TodoWrite", { todos: [] })).toEqual({ kind: "poll" });
    expect(effectOf("TaskList", {})).toEqual({ kind: "poll" });
    expect(effectOf("Skill", { skill: "x" })).toEqual({ kind: "neutral" });
    expect(effectOf("Read", null)).toEqual({ kind: "read", paths: [] });
  });

  it("marks what keeps running after its result came back", () => {
    expect(effectOf("Bash", { command: "npm run dev", run_in_background: true })).toEqual({ kind: "exec", background: true });
    expect(effectOf("Task", { prompt: "p", run_in_background: true })).toEqual({ kind: "exec", background: true });
    expect(effectOf("Task", { prompt: "p" })).toEqual({ kind: "exec" });
    // Claude Code 2.1 runs an Agent in the background unless told not to (docs/claude-code-facts.md).
    expect(effectOf("Agent", { prompt: "p" })).toEqual({ kind: "exec", background: true });
    expect(effectOf("Agent", { prompt: "p", run_in_background: false })).toEqual({ kind: "exec" });
  });
});

describe("canonicalJson", () => {
  it("ignores key order at every depth, keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
  });

  it("is the text of JSON.stringify with every object's keys sorted (property)", () => {
    const reference = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(reference).join(",")}]`
        : v !== null && typeof v === "object"
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`)
              .join(",")}}`
          : JSON.stringify(v);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
    );
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("walks an input nested 50 000 levels deep to its exact form, the same every time", () => {
    const nest = (inner: string) => JSON.parse(`${"[".repeat(50_000)}${inner}${"]".repeat(50_000)}`) as unknown;
    const form = canonicalJson(nest('{"a":1}'));
    expect(form).toBe(`${"[".repeat(50_000)}{"a":1}${"]".repeat(50_000)}`);
    expect(inputDigest(nest('{"a":1}'))).toBe(inputDigest(nest('{"a":1}')));
    expect(inputDigest(nest('{"a":1}'))).not.toBe(inputDigest(nest('{"a":2}')));
  });

  it("writes a value that contains itself as the cycle marker, and a value met twice in full", () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(canonicalJson(loop)).toBe(`{"a":1,"self":${CYCLE_MARKER}}`);
    const shared = { x: [1] };
    expect(canonicalJson({ p: shared, q: shared })).toBe('{"p":{"x":[1]},"q":{"x":[1]}}');
    expect(canonicalJson([shared, [shared]])).toBe('[{"x":[1]},[{"x":[1]}]]');
  });

  it("is the same for any permutation of keys (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(object));
      }),
    );
  });
});

describe("normalizePath", () => {
  it("resolves dots and slashes in absolute paths; gives up on anything else", () => {
    expect(normalizePath("/a/./b//c/../d/")).toBe("/a/b/d");
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("src/a.ts")).toBeNull();
    expect(normalizePath("./src")).toBeNull();
    expect(normalizePath("~/.claude")).toBeNull();
    expect(normalizePath("C:\\repo\\a.ts")).toBeNull();
  });
});

describe("findExactRepeat (SPEC §7)", () => {
  it("the same read with nothing in between is a repeat of the latest identical call", () => {
    expect(repeatAt([read("/a")], read("/a"))).toBe(1);
    expect(repeatAt([read("/a"), read("/b"), read("/a")], read("/a"))).toBe(3);
    expect(repeatAt([read("/a")], read("/b"))).toBeUndefined();
    expect(repeatAt([read("/a")], call("Grep", { file_path: "/a" }))).toBeUndefined(); // another tool
  });

  it("ignores key order in the input", () => {
    const first = call("Grep", { pattern: "foo", path: "/src", output_mode: "content" });
    const again = call("Grep", { output_mode: "content", path: "/src", pattern: "foo" });
    expect(repeatAt([first], again)).toBe(1);
  });

  it("a test re-run after an edit is not a repeat; with nothing in between it is", () => {
    expect(repeatAt([TEST, edit("/src/a.ts")], TEST)).toBeUndefined();
    expect(repeatAt([TEST, write("/src/new.ts")], TEST)).toBeUndefined();
    expect(repeatAt([TEST], TEST)).toBe(1);
    expect(repeatAt([TEST, read("/src/a.ts")], TEST)).toBe(1); // a read changes nothing
  });

  it("a re-read after a write to the same path is not a repeat; after a write to another path it is", () => {
    expect(repeatAt([read("/src/a.ts"), edit("/src/a.ts")], read("/src/a.ts"))).toBeUndefined();
    expect(repeatAt([read("/src/a.ts"), write("/src/a.ts")], read("/src/a.ts"))).toBeUndefined();
    expect(repeatAt([read("/src/a.ts"), edit("/src/b.ts")], read("/src/a.ts"))).toBe(1);
    expect(repeatAt([read("/src/a.ts"), edit("/src/a.ts.bak")], read("/src/a.ts"))).toBe(1); // a prefix is not the same path
  });

  it("a search of a folder sees writes inside it, and only there", () => {
    const grep = call("Grep", { pattern: "TODO", path: "/repo/src" });
    expect(repeatAt([grep, edit("/repo/src/deep/a.ts")], grep)).toBeUndefined();
    expect(repeatAt([grep, edit("/repo/srcs/a.ts")], grep)).toBe(1);
    expect(repeatAt([grep, edit("/repo/docs/a.md")], grep)).toBe(1);
    const everywhere = call("Glob", { pattern: "**/*.ts" }); // no path: could see any file
    expect(repeatAt([everywhere, write("/anywhere/x.ts")], everywhere)).toBeUndefined();
  });

  it("a path the code cannot pin down is assumed to be touched (no false repeat)", () => {
    const relative = call("Glob", { pattern: "*.md", path: "./docs" });
    expect(repeatAt([relative, write("/repo/docs/new.md")], relative)).toBeUndefined();
    const home = call("Glob", { pattern: "*.md", path: "~/.claude/commands" });
    expect(repeatAt([home, write("/home/u/.claude/commands/x.md")], home)).toBeUndefined();
    expect(repeatAt([read("/repo/a.ts"), write("/repo/sub/../a.ts")], read("/repo/a.ts"))).toBeUndefined();
    expect(repeatAt([read("/repo/a.ts"), call("Write", { content: "no path" })], read("/repo/a.ts"))).toBeUndefined();
  });

  it("any Bash in between clears, for reads and for everything else", () => {
    expect(repeatAt([read("/a"), bash("true")], read("/a"))).toBeUndefined();
    expect(repeatAt([edit("/a"), bash("git status")], edit("/a"))).toBeUndefined();
    expect(repeatAt([call("WebFetch", { url: "https://x" }), bash("ls")], call("WebFetch", { url: "https://x" }))).toBeUndefined();
    const mcp = call("mcp__db__query", { sql: "select 1" }); // a tool the code does not know: may change anything
    expect(repeatAt([read("/a"), mcp], read("/a"))).toBeUndefined();
    expect(repeatAt([mcp], mcp)).toBe(1);
  });

  it("for a non-read call, any write at all clears", () => {
    expect(repeatAt([edit("/a"), write("/b")], edit("/a"))).toBeUndefined();
    expect(repeatAt([TEST, edit("/unrelated")], TEST)).toBeUndefined();
  });

  it("polling and bookkeeping never repeat, and change nothing in between", () => {
    const poll = call("BashOutput", { bash_id: "bash_1" });
    expect(repeatAt([poll], poll)).toBeUndefined();
    const todos = call("TodoWrite", { todos: [{ content: "x", status: "pending" }] });
    expect(repeatAt([todos], todos)).toBeUndefined();
    for (const tool of ["TaskList", "TaskGet", "TaskOutput", "TaskUpdate", "TaskCreate"]) {
      expect(repeatAt([call(tool, { id: "1" })], call(tool, { id: "1" }))).toBeUndefined();
    }
    // Stopping a job acts on it (SPEC §6): a tool_call, whose second identical call is a repeat like any other.
    expect(repeatAt([call("TaskStop", { task_id: "1" })], call("TaskStop", { task_id: "1" }))).toBe(1);
    expect(repeatAt([call("Skill", { skill: "s" })], call("Skill", { skill: "s" }))).toBeUndefined(); // neutral
    expect(repeatAt([read("/a"), poll, todos], read("/a"))).toBe(1);
  });

  it("a call that came back with an error is never the original, but still counts as in between", () => {
    expect(repeatAt([failed("Read", { file_path: "/a" })], read("/a"))).toBeUndefined();
    expect(repeatAt([read("/a"), failed("Read", { file_path: "/a" })], read("/a"))).toBe(1);
    // "File has not been read yet" or "modified since read": the edit failed, and the re-read it asks for is not a repeat.
    expect(repeatAt([read("/a"), failed("Edit", { file_path: "/a" })], read("/a"))).toBeUndefined();
    expect(repeatAt([read("/a"), failed("Bash", { command: "make" })], read("/a"))).toBeUndefined();
  });

  it("after something was started in the background, nothing is provably a repeat", () => {
    const server = call("Bash", { command: "npm run dev", run_in_background: true });
    expect(repeatAt([server, read("/app/log.txt")], read("/app/log.txt"))).toBeUndefined();
    expect(repeatAt([call("Agent", { prompt: "edit things" }), read("/a")], read("/a"))).toBeUndefined();
    expect(repeatAt([call("Agent", { prompt: "p", run_in_background: false }), read("/a")], read("/a"))).toBe(2);
    expect(repeatAt([call("Task", { prompt: "p" }), read("/a")], read("/a"))).toBe(2); // a foreground Task is over when its result is back
  });

  it("a call still out (a parallel sibling, or one that never reported back) counts as in between, never as the original", () => {
    expect(repeatAt([read("/a")], read("/a"), [bash("sed -i s/x/y/ /a")])).toBeUndefined();
    expect(repeatAt([read("/a")], read("/a"), [edit("/a")])).toBeUndefined();
    expect(repeatAt([read("/a")], read("/a"), [edit("/b"), call("Grep", { pattern: "x", path: "/" })])).toBe(1);
    expect(repeatAt([read("/a")], read("/a"), [read("/a")])).toBe(1); // a parallel twin: the earlier one that ran is the original
    expect(repeatAt([], read("/a"), [read("/a")])).toBeUndefined();
    expect(repeatAt([read("/a")], read("/a"), [call("Agent", { prompt: "p" })])).toBeUndefined();
  });

  it("an empty history (a new scope, or right after a compaction) holds no repeat", () => {
    // Callers clear the history at a compaction (PreCompact hook; replay at compact_boundary): see test/replay.
    expect(repeatAt([], read("/a"))).toBeUndefined();
  });

  it("a repeat is only claimed when every call in between is harmless (property)", () => {
    const harmless = fc.constantFrom<Call>(
      read("/x"),
      read("/y"),
      call("BashOutput", { bash_id: "1" }),
      call("TodoWrite", { todos: [] }),
      edit("/other"),
    );
    const harmful = fc.constantFrom<Call>(bash("ls"), edit("/target"), write("/target"), failed("Edit", { file_path: "/target" }));
    fc.assert(
      fc.property(fc.array(fc.oneof(harmless, harmful), { maxLength: 12 }), (between) => {
        const found = repeatAt([read("/target"), ...between], read("/target"));
        const clean = between.every(
          (c) => c.tool !== "Bash" && !(c.tool !== "Read" && (c.input as { file_path?: string }).file_path === "/target"),
        );
        expect(found !== undefined).toBe(clean);
      }),
    );
  });
});

describe("what a call reads and writes", () => {
  it("reads the path of each key a read-only tool names, and no empty path", () => {
    expect(effectOf("Grep", { pattern: "x", path: "/repo/src" })).toEqual({ kind: "read", paths: ["/repo/src"] });
    expect(effectOf("NotebookRead", { notebook_path: "/n.ipynb" })).toEqual({ kind: "read", paths: ["/n.ipynb"] });
    expect(effectOf("Read", { file_path: "" })).toEqual({ kind: "read", paths: [] });
    expect(effectOf("Read", null)).toEqual({ kind: "read", paths: [] });
    expect(effectOf("Write", "not an object")).toEqual({ kind: "write", paths: [] });
  });

  it("knows the file each write tool writes", () => {
    expect(effectOf("Write", { file_path: "/a" })).toEqual({ kind: "write", paths: ["/a"] });
    expect(effectOf("MultiEdit", { file_path: "/a", edits: [] })).toEqual({ kind: "write", paths: ["/a"] });
    expect(effectOf("NotebookEdit", { notebook_path: "/n.ipynb" })).toEqual({ kind: "write", paths: ["/n.ipynb"] });
  });

  it("a write elsewhere leaves a search of a folder a repeat; a write inside it, or to a path it cannot place, does not", () => {
    const grep = call("Grep", { pattern: "x", path: "/repo/src" });
    expect(repeatAt([grep, call("Write", { file_path: "/other/a.ts", content: "" })], grep)).toBe(1);
    expect(repeatAt([grep, call("MultiEdit", { file_path: "/other/a.ts", edits: [] })], grep)).toBe(1);
    expect(repeatAt([grep, call("Write", { file_path: "/repo/src/a.ts", content: "" })], grep)).toBeUndefined();
    expect(repeatAt([grep, call("Write", { file_path: "src/a.ts", content: "" })], grep)).toBeUndefined(); // relative: it could be anywhere
  });

  it("a read of several paths is changed by a write to any one of them", () => {
    const both = call("Read", { file_path: "/a", path: "/b" });
    expect(effectOf(both.tool, both.input)).toEqual({ kind: "read", paths: ["/a", "/b"] });
    expect(repeatAt([both, call("Edit", { file_path: "/b", old_string: "x", new_string: "y" })], both)).toBeUndefined();
    expect(repeatAt([both, call("Edit", { file_path: "/a", old_string: "x", new_string: "y" })], both)).toBeUndefined();
    expect(repeatAt([both, call("Edit", { file_path: "/c", old_string: "x", new_string: "y" })], both)).toBe(1);
  });

  it("without calls in flight, finds the repeat in the history alone", () => {
    const history = ran([call("Read", { file_path: "/a" })]);
    expect(findExactRepeat(history, { tool: "Read", digest: history[0]!.digest, effect: history[0]!.effect })?.previous.at).toBe(1);
  });

  it("writes the cycle marker as <cycle>, which no JSON text holds", () => {
    expect(CYCLE_MARKER).toBe("<cycle>");
  });
});
