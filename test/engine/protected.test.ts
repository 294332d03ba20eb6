// The gate's own records are not the model's to edit (SPEC §6): a call aimed
// inside the plugin's data folder or at a transcript is refused where gated.
// The engine's part: which paths a writing tool names, and why one is guarded.
// Any other tool's paths, and Claude Code's configuration: ./named-paths.test.ts.
import { describe, expect, it } from "vitest";
import { namedPaths } from "../../src/engine/named-paths.js";
import { guardedReason, protectedReason, runReason } from "../../src/engine/protected.js";

describe("the paths a writing tool names (SPEC §6)", () => {
  const values = (tool: string, input: unknown) => {
    const named = namedPaths(tool, input);
    if (!named.ok) throw new Error(named.problem);
    return named.paths.map((p) => p.value);
  };

  it.each(["Write", "Edit", "MultiEdit"])("%s names its file_path, not its content", (tool) => {
    expect(namedPaths(tool, { file_path: "/p/a.ts", content: "/p/b.ts" })).toStrictEqual({
      ok: true,
      paths: [{ field: "file_path", value: "/p/a.ts" }],
    });
  });

  it("NotebookEdit names its notebook_path, not a file_path", () => {
    expect(values("NotebookEdit", { notebook_path: "/p/n.ipynb", new_source: "x" })).toStrictEqual(["/p/n.ipynb"]);
    expect(values("NotebookEdit", { file_path: "/p/a.ts" })).toStrictEqual([]);
  });

  it("a path key of another writing tool does not count", () => {
    expect(values("Write", { notebook_path: "/p/n.ipynb" })).toStrictEqual([]);
  });

  it("a relative path is given as written: the caller resolves it", () => {
    expect(values("Edit", { file_path: "src/../x.ts" })).toStrictEqual(["src/../x.ts"]);
  });

  it("an empty or non-string path names nothing", () => {
    expect(values("Write", { file_path: "" })).toStrictEqual([]);
    expect(values("Write", { file_path: 42 })).toStrictEqual([]);
    expect(values("Write", { file_path: ["/p/a.ts"] })).toStrictEqual([]);
    expect(values("Write", {})).toStrictEqual([]);
  });

  it("an input that is not an object names nothing", () => {
    for (const input of [null, undefined, "/p/a.ts", 3]) expect(values("Write", input)).toStrictEqual([]);
  });
});

describe("why a write is refused: the data folder and the transcripts (SPEC §6, §10)", () => {
  const places = { dataDir: "/home/u/.claude/plugins/data/utility", transcriptDir: "/home/u/.claude/projects/-work-app" };

  it("a file inside the data folder is refused, and the reason names the path and the folder", () => {
    const path = "/home/u/.claude/plugins/data/utility/state/s1.json";
    const reason = protectedReason(path, places);
    expect(reason).toContain(path);
    expect(reason).toContain(`(${places.dataDir})`);
    expect(reason).toContain("data folder");
  });

  it("deep inside the data folder is inside it too", () => {
    expect(protectedReason("/home/u/.claude/plugins/data/utility/sessions/a/b/c.jsonl", places)).toContain("data folder");
  });

  it("the data folder itself is guarded", () => {
    expect(protectedReason(places.dataDir, places)).toContain("data folder");
  });

  it("a sibling whose name only starts like the data folder is not inside it", () => {
    expect(protectedReason("/home/u/.claude/plugins/data/utility-notes.txt", places)).toBeUndefined();
    expect(protectedReason("/home/u/.claude/plugins/data/utility2/state.json", places)).toBeUndefined();
  });

  it("a folder given with a trailing slash guards the same", () => {
    const slashed = { dataDir: `${places.dataDir}/`, transcriptDir: `${places.transcriptDir}/` };
    expect(protectedReason(`${places.dataDir}/state/s1.json`, slashed)).toContain("data folder");
    expect(protectedReason(places.dataDir, slashed)).toContain("data folder");
    expect(protectedReason("/home/u/.claude/plugins/data/utility2/x", slashed)).toBeUndefined();
    expect(protectedReason(`${places.transcriptDir}/s1.jsonl`, slashed)).toContain("transcript");
  });

  it("a data folder at the root guards every path", () => {
    expect(protectedReason("/etc/hosts", { dataDir: "/", transcriptDir: "/t" })).toContain("data folder");
  });

  it("a session transcript is refused, and the reason names the path and what it is", () => {
    const path = "/home/u/.claude/projects/-work-app/3f2a.jsonl";
    const reason = protectedReason(path, places);
    expect(reason).toContain(path);
    expect(reason).toContain("transcript file");
  });

  it("a subagent's transcript, below the session's folder, is refused too", () => {
    expect(protectedReason("/home/u/.claude/projects/-work-app/3f2a/subagents/agent-a1.jsonl", places)).toContain("transcript file");
  });

  it("a file in the transcript folder that is not a transcript may be written", () => {
    expect(protectedReason("/home/u/.claude/projects/-work-app/memory/notes.md", places)).toBeUndefined();
    expect(protectedReason("/home/u/.claude/projects/-work-app/3f2a.jsonl.bak", places)).toBeUndefined();
    expect(protectedReason("/home/u/.claude/projects/-work-app/jsonl.txt", places)).toBeUndefined();
  });

  it("a .jsonl file outside the transcript folder may be written", () => {
    expect(protectedReason("/work/app/data/events.jsonl", places)).toBeUndefined();
    expect(protectedReason("/home/u/.claude/projects/-work-app-other/3f2a.jsonl", places)).toBeUndefined();
  });

  it("the transcript folder's own name, as a file, is no transcript inside it", () => {
    const jsonlFolder = { dataDir: "/data", transcriptDir: "/t/logs.jsonl" };
    expect(protectedReason("/t/logs.jsonl", jsonlFolder)).toContain("transcript file");
    expect(protectedReason("/t/logs.jsonl2/x.jsonl", jsonlFolder)).toBeUndefined();
  });

  it("an ordinary project file is not guarded", () => {
    expect(protectedReason("/work/app/src/main.ts", places)).toBeUndefined();
  });

  it("`..` and `.` are resolved before the check: a path that climbs into a guarded place is caught", () => {
    const sneaky = "/work/app/../../home/u/.claude/plugins/data/utility/./state/s1.json";
    const reason = protectedReason(sneaky, places);
    expect(reason).toContain("data folder");
    expect(reason).toContain(sneaky);
    expect(protectedReason("/home/u/.claude/projects/-work-app/x/../3f2a.jsonl", places)).toContain("transcript file");
  });

  it("a path that climbs out of a guarded place is not in it", () => {
    expect(protectedReason("/home/u/.claude/plugins/data/utility/../elsewhere.json", places)).toBeUndefined();
    expect(protectedReason("/home/u/.claude/projects/-work-app/../notes.jsonl", places)).toBeUndefined();
  });

  it("a guarded place given with `..` guards where it leads", () => {
    const climbing = { dataDir: "/home/u/x/../data", transcriptDir: "/home/u/t/./p" };
    expect(protectedReason("/home/u/data/state.json", climbing)).toContain("data folder");
    expect(protectedReason("/home/u/t/p/s.jsonl", climbing)).toContain("transcript file");
  });

  it("the data folder's reason comes first when a transcript lies inside it", () => {
    const nested = { dataDir: "/d", transcriptDir: "/d/projects" };
    expect(protectedReason("/d/projects/s.jsonl", nested)).toContain("data folder");
  });

  it("a path that is not absolute is left to the caller to resolve: nothing is refused", () => {
    expect(protectedReason("state/s1.json", places)).toBeUndefined();
    expect(protectedReason("3f2a.jsonl", { dataDir: "/d", transcriptDir: "/" })).toBeUndefined();
  });

  it("a place that is not absolute guards nothing, and the other place still does", () => {
    const relativeData = { dataDir: "data", transcriptDir: places.transcriptDir };
    expect(protectedReason("/work/app/data/x.json", relativeData)).toBeUndefined();
    expect(protectedReason(`${places.transcriptDir}/s.jsonl`, relativeData)).toContain("transcript file");
    const relativeTranscripts = { dataDir: places.dataDir, transcriptDir: "projects" };
    expect(protectedReason("/work/app/projects/s.jsonl", relativeTranscripts)).toBeUndefined();
    expect(protectedReason(`${places.dataDir}/x`, relativeTranscripts)).toContain("data folder");
  });
});

describe("a file a command Claude Code runs by itself names", () => {
  const runs = ["/p/tools/pre-bash", "/p/scripts"];

  it("is refused with its own reason: the file, what is in a folder a glob lists, and what holds them", () => {
    expect(runReason("/p/tools/pre-bash", runs)).toMatch(/^\/p\/tools\/pre-bash: a command Claude Code runs by itself .* runs it/);
    expect(runReason("/p/scripts/a.sh", runs)).toContain("/p/scripts/a.sh is in /p/scripts: a command");
    expect(runReason("/p/tools", runs)).toContain("/p/tools holds /p/tools/pre-bash: a command");
    expect(runReason("/p/tools/other", runs)).toBeUndefined();
    expect(runReason("relative", runs)).toBeUndefined();
  });

  it("comes after the records and the configuration", () => {
    const places = { dataDir: "/d", transcriptDir: "/t", config: ["/p/.claude"], runs: ["/d/x", "/p/.claude/h.sh", "/p/y"] };
    expect(guardedReason("/d/x", places)).toContain("data folder");
    expect(guardedReason("/p/.claude/h.sh", places)).toContain("configuration");
    expect(guardedReason("/p/y", places)).toContain("runs it");
  });
});

describe("a file named relative to the folder a hook starts in", () => {
  it("is guarded wherever the session's shell may have gone: any path ending so, or under a folder named so", () => {
    expect(runReason("/p/sub/tools/pre-bash", [], ["tools/pre-bash"])).toContain("ends in tools/pre-bash");
    expect(runReason("/p/sub/tools/a.sh", [], ["tools"])).toContain("ends in tools");
    expect(runReason("/p/sub/other/pre-bash", [], ["tools/pre-bash"])).toBeUndefined();
    expect(runReason("/p/sub/mytools/pre-bash", [], ["tools/pre-bash"])).toBeUndefined();
  });
});
