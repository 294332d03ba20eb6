/**
 * A session forked with `--resume <id> --fork-session` (issue 31, hole 16):
 * its transcript begins with the lines Claude Code copied from the session it
 * came from, so that session is found by them, and `/utility on` in force
 * there (its state, else its log) is in force in the fork. Real files in a
 * scratch HOME; the session machine folds the events as the hooks do.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reduceAll } from "../../src/engine/session/reduce.js";
import { newSession, type SessionState } from "../../src/engine/session/state.js";
import { forkOriginEvents } from "../../src/hooks/fork-origin.js";
import { tempDir, type TempDir } from "../transcript/helpers.js";
import { fakeContext } from "./fake-context.js";

const line = (uuid: string, text = "x") => JSON.stringify({ type: "user", uuid, message: { role: "user", content: text } });
const bookkeeping = JSON.stringify({ type: "queue-operation", operation: "enqueue", content: "go" });

let dir: TempDir | undefined;
afterEach(() => dir?.remove());

/** A scratch HOME with a project folder of transcripts, and a context whose data folder and HOME are in it. */
function setup() {
  dir = tempDir();
  const projects = join(dir.path, ".claude", "projects", "-work");
  mkdirSync(projects, { recursive: true });
  const ctx = fakeContext();
  ctx.env = { HOME: dir.path };
  ctx.dataDir = join(dir.path, "data");
  const transcript = (id: string, uuids: string[]) => {
    const file = join(projects, `${id}.jsonl`);
    writeFileSync(file, [bookkeeping, ...uuids.map((u) => line(u))].join("\n") + "\n");
    return file;
  };
  const forked = (id: string): SessionState => reduceAll(newSession(id), [{ kind: "session_forked" }]).session;
  const on = (id: string) => ctx.store.transact(id, () => ({ state: { ...newSession(id), manualGate: true }, result: undefined }));
  const log = (id: string, switched: "on" | "off") => {
    mkdirSync(join(ctx.dataDir, "sessions"), { recursive: true });
    appendFileSync(join(ctx.dataDir, "sessions", `${id}.jsonl`), JSON.stringify({ event: "UserPromptExpansion", switched }) + "\n");
  };
  return { ctx, transcript, forked, on, log, projects };
}

describe("the session a fork came from", () => {
  it("is the one whose transcript it copied; /utility on there (its state) is on here, logged as a switch", async () => {
    const { ctx, transcript, forked, on } = setup();
    transcript("A", ["u1", "u2"]);
    transcript("other", ["v1", "v2"]);
    const b = transcript("B", ["u1", "u2", "u3"]);
    await on("A");
    const events = forkOriginEvents(forked("B"), b, ctx);
    expect(events).toEqual([{ kind: "fork_origin", from: "A", gated: true }]);
    const r = reduceAll(forked("B"), events);
    expect(r.session).toMatchObject({ forkedFrom: "A", manualGate: true });
    expect(r.prompts).toEqual([{ key: "", kind: "typed", switched: "on" }]);
    // Found once: a second look changes nothing.
    expect(forkOriginEvents(r.session, b, ctx)).toEqual([]);
  });

  it.each([
    ["on", true],
    ["off", false],
  ] as const)("with no state there, its log's last switch (%s) decides", (last, gated) => {
    const { ctx, transcript, forked, log } = setup();
    transcript("A", ["u1"]);
    const b = transcript("B", ["u1", "u2"]);
    log("A", "on");
    if (last === "off") log("A", "off");
    expect(forkOriginEvents(forked("B"), b, ctx)).toEqual([{ kind: "fork_origin", from: "A", gated }]);
  });

  it("a fork of a fork came from the one it shares most lines with, not their common root", async () => {
    const { ctx, transcript, forked, on } = setup();
    transcript("A", ["u1", "u2"]);
    transcript("B", ["u1", "u2", "b1", "b2"]);
    const c = transcript("C", ["u1", "u2", "b1", "b2", "c1"]);
    await on("B");
    expect(forkOriginEvents(forked("C"), c, ctx)).toEqual([{ kind: "fork_origin", from: "B", gated: true }]);
  });

  it("not found while the copied lines are not written; '-' when no other transcript has them", () => {
    const { ctx, transcript, forked, projects } = setup();
    const b = join(projects, "B.jsonl");
    expect(forkOriginEvents(forked("B"), b, ctx)).toEqual([]);
    writeFileSync(b, bookkeeping + "\n");
    expect(forkOriginEvents(forked("B"), b, ctx)).toEqual([]);
    transcript("B", ["u9"]);
    const events = forkOriginEvents(forked("B"), b, ctx);
    expect(events).toEqual([{ kind: "fork_origin", from: "-", gated: false }]);
    expect(reduceAll(forked("B"), events).session).toMatchObject({ forkedFrom: "-", manualGate: false });
  });

  it("only for a session marked as a fork, and only from its own transcript where Claude Code keeps it", async () => {
    const { ctx, transcript, forked, on } = setup();
    transcript("A", ["u1"]);
    const b = transcript("B", ["u1", "u2"]);
    await on("A");
    expect(forkOriginEvents(newSession("B"), b, ctx)).toEqual([]);
    const elsewhere = dir!.file("B.jsonl", [line("u1"), line("u2")].join("\n") + "\n");
    expect(forkOriginEvents(forked("B"), elsewhere, ctx)).toEqual([]);
  });
});

describe("the session machine", () => {
  it("marks a fork once, and takes only the first origin found", () => {
    const s = reduceAll(newSession("B"), [
      { kind: "session_forked" },
      { kind: "fork_origin", from: "A", gated: false },
      { kind: "session_forked" },
      { kind: "fork_origin", from: "C", gated: true },
    ]).session;
    expect(s).toMatchObject({ forkedFrom: "A", manualGate: false });
  });

  it("an origin gated when the fork is on already logs no second switch", () => {
    const on = { ...reduceAll(newSession("B"), [{ kind: "session_forked" }]).session, manualGate: true };
    expect(reduceAll(on, [{ kind: "fork_origin", from: "A", gated: true }]).prompts).toEqual([]);
  });
});
