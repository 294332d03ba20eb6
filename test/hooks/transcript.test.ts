/**
 * Reading a scope's transcript for the session machine (src/hooks/transcript.ts):
 * only what is new since the stored offset; a first look at the main
 * transcript, or another file in its place, reads back to the current task's
 * start only; a transcript that is no regular file, or gone after lines were
 * read from it, is trouble the hook can see (SPEC §10, issue 18).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newScope, type ScopeDraft, type ScopeState } from "../../src/engine/session/state.js";
import { ingestEvents } from "../../src/ingest/transcript.js";
import { promptKey } from "../../src/ingest/prompts.js";
import { scopeOf, type ScopeRef } from "../../src/hooks/scope.js";
import { readNewLines, TranscriptTrouble, type NewLines } from "../../src/hooks/transcript.js";
import { jsonl, meta, prompt } from "../transcript/helpers.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-hook-transcript-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let files = 0;
const fresh = (name = "t") => join(scratch, `${name}-${++files}.jsonl`);
const mainRef = (file: string) => scopeOf({ session_id: "s1", transcript_path: file });
/** A scope that has read `offset` bytes of the file `transcriptId`. */
const readTo = (read: NewLines): ScopeState => {
  const scope = structuredClone(newScope()) as ScopeDraft;
  scope.offset = read.nextOffset;
  if (read.transcriptId) scope.transcriptId = read.transcriptId;
  return scope;
};
const foldersOf = (read: NewLines, ref: ScopeRef) =>
  ingestEvents(read.events, ref.key).flatMap((item) => (item.kind === "skill_seen" ? [item.folder] : []));
const skill = (folder: string) => meta(`Base directory for this skill: ${folder}\n\nx`);
/** A typed prompt's line with its prompt id, as 2.1.328 writes it. */
const typed = (text: string, promptId: string) => JSON.stringify({ ...JSON.parse(prompt(text)), promptId, promptSource: "typed" });

describe("readNewLines", () => {
  it("sees nothing, and does not throw, when the transcript does not exist yet (the first call of a session or subagent)", () => {
    const main = mainRef(join(scratch, "missing.jsonl"));
    expect(readNewLines(newScope(), main, [])).toEqual({ events: [], nextOffset: 0 });
    const agent = scopeOf({ session_id: "s-missing", transcript_path: join(scratch, "missing.jsonl"), agent_id: "a-missing" });
    expect(readNewLines(newScope(), agent, [])).toEqual({ events: [], nextOffset: 0 });
  });

  it("finds an activation in the current task and continues from where it stopped", () => {
    const file = fresh();
    writeFileSync(file, jsonl([prompt("old task"), skill("/old"), prompt("new task"), skill("/new")]));
    const ref = mainRef(file);
    const first = readNewLines(newScope(), ref, []);
    expect(foldersOf(first, ref)).toEqual(["/new"]);
    expect(first.nextOffset).toBe(statSync(file).size);
    appendFileSync(file, jsonl([skill("/later")]));
    const next = readNewLines(readTo(first), ref, []);
    expect(foldersOf(next, ref)).toEqual(["/later"]);
    expect(readNewLines(readTo(next), ref, []).events).toEqual([]);
  });

  it("a first look reads back to the oldest prompt still vouched for, not only the last typed-looking line", () => {
    const file = fresh();
    writeFileSync(
      file,
      jsonl([typed("older", "p0"), skill("/old"), typed("switch", "p1"), skill("/kept"), typed("then", "p2"), skill("/new")]),
    );
    const ref = mainRef(file);
    expect(foldersOf(readNewLines(newScope(), ref, []), ref)).toEqual(["/new"]);
    expect(foldersOf(readNewLines(newScope(), ref, [promptKey("p1"), promptKey("p2")]), ref)).toEqual(["/kept", "/new"]);
  });

  it("another file in its place, or one shorter than the offset, is read again from a safe point (SPEC §10)", () => {
    const file = fresh();
    writeFileSync(file, jsonl([prompt("task"), skill("/a")]));
    const ref = mainRef(file);
    const first = readNewLines(newScope(), ref, []);
    // Replaced by a file of the same size or longer: the offset alone would skip its lines.
    const other = `${file}.new`;
    writeFileSync(other, jsonl([prompt("task"), skill("/b"), skill("/c")]));
    renameSync(other, file);
    const again = readNewLines(readTo(first), ref, []);
    expect(again.transcriptId).not.toBe(first.transcriptId);
    expect(foldersOf(again, ref)).toEqual(["/b", "/c"]);
    // Cut shorter in place: back to the task's start.
    writeFileSync(file, jsonl([prompt("task"), skill("/d")]));
    const shorter = { ...readTo(again), offset: again.nextOffset + 1000 };
    expect(foldersOf(readNewLines(shorter, ref, []), ref)).toEqual(["/d"]);
  });

  it("a subagent's own file, replaced, is read again from its start", () => {
    const dir = join(scratch, "s1", "subagents");
    mkdirSync(dir, { recursive: true });
    const ref = scopeOf({ session_id: "s1", transcript_path: join(scratch, "s1.jsonl"), agent_id: "a1" });
    writeFileSync(ref.transcript, jsonl([prompt("sub task"), skill("/a")]));
    const first = readNewLines(newScope(), ref, []);
    expect(foldersOf(first, ref)).toEqual(["/a"]);
    writeFileSync(`${ref.transcript}.new`, jsonl([prompt("sub task"), skill("/b"), skill("/c")]));
    renameSync(`${ref.transcript}.new`, ref.transcript);
    expect(foldersOf(readNewLines(readTo(first), ref, []), ref)).toEqual(["/b", "/c"]);
  });
});

describe("transcript trouble (issue 18): the hook sees it, it never reads past it", () => {
  const trouble = (scope: ScopeState, ref: ScopeRef) => {
    try {
      readNewLines(scope, ref, []);
    } catch (error) {
      expect(error).toBeInstanceOf(TranscriptTrouble);
      return (error as Error).message;
    }
    throw new Error("no trouble seen");
  };

  it("a symbolic link in the transcript's place", () => {
    const real = fresh("real");
    writeFileSync(real, jsonl([prompt("task"), skill("/hidden")]));
    const file = fresh("link");
    symlinkSync(real, file);
    expect(trouble(newScope(), mainRef(file))).toBe(`the transcript ${file} is a symbolic link`);
  });

  it("a FIFO in its place, without blocking on it", () => {
    const file = fresh("fifo");
    execFileSync("mkfifo", [file]);
    expect(trouble(newScope(), mainRef(file))).toBe(`the transcript ${file} is not a regular file (a FIFO, a folder or a device)`);
  });

  it("a folder in its place", () => {
    const file = fresh("folder");
    mkdirSync(file);
    expect(trouble(newScope(), mainRef(file))).toBe(`the transcript ${file} is not a regular file (a FIFO, a folder or a device)`);
  });

  it("gone after lines were read from it; not before (Claude Code may not have created it yet)", () => {
    const file = fresh();
    writeFileSync(file, jsonl([prompt("task")]));
    const ref = mainRef(file);
    const first = readNewLines(newScope(), ref, []);
    rmSync(file);
    expect(readNewLines(newScope(), ref, [])).toEqual({ events: [], nextOffset: 0 });
    expect(trouble(readTo(first), ref)).toBe(`the transcript ${file} is gone, after ${first.nextOffset} bytes were read from it`);
  });
});

describe("a Workflow's subagent's transcript (scopeOf)", () => {
  it("is subagents/workflows/<run id>/agent-<id>.jsonl when only that one exists, else the plain one", () => {
    const dir = mkdtempSync(join(tmpdir(), "utility-wf-scope-"));
    try {
      const transcript = join(dir, "s.jsonl");
      const input = { session_id: "s", transcript_path: transcript, agent_id: "w2" };
      expect(scopeOf(input).transcript).toBe(join(dir, "s", "subagents", "agent-w2.jsonl"));
      mkdirSync(join(dir, "s", "subagents", "workflows", "wf_run1"), { recursive: true });
      writeFileSync(join(dir, "s", "subagents", "workflows", "wf_run1", "agent-w2.jsonl"), "");
      expect(scopeOf(input).transcript).toBe(join(dir, "s", "subagents", "workflows", "wf_run1", "agent-w2.jsonl"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
