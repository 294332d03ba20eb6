/**
 * The spend ledger's files (SPEC §12 "beyond one task"): one file per session
 * and UTC day, whole lines appended under the session's lock, read by every
 * session to count a rolling window. Many sessions at once, and many hook
 * processes of one session at once, must neither lose spend nor count it
 * twice: checked with the real PreToolUse hook processes (the bundle Claude
 * Code runs), wave after wave, against the usage the transcripts report.
 */
import {
  appendFileSync,
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
import { afterAll, describe, expect, it } from "vitest";
import { spendInWindow, windowStart, type LedgerLine } from "../../src/engine/ledger.js";
import { decideInSession } from "../../src/engine/session/decide.js";
import { newSession, type SessionState } from "../../src/engine/session/state.js";
import { zeroSpend, type Spend } from "../../src/engine/spend.js";
import {
  appendLedgerLine,
  dayOf,
  LEDGER_KEEP_DAYS,
  ledgerFile,
  pruneLedger,
  readLedger,
  windowSpend,
  withLedger,
} from "../../src/state/ledger.js";
import { FileStateStore } from "../../src/state/store.js";
import { preToolUseArgs, startServer } from "../server/client.js";
import { estimateCostUsd, DEFAULT_PRICES } from "../../src/engine/prices.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-ledger-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(scratch, `data-${++dirs}`);

const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const HOUR = 3_600_000;
const t = (input: number) => ({ input, output: 0, cacheCreation: 0, cacheRead: 0 });
const line = (at: number, from: number, to: number): LedgerLine => ({ v: 1, t: at, from: { opus: t(from) }, to: { opus: t(to) } });
const spent = (input: number): Spend => ({ ...zeroSpend(), tokens: t(input), byModel: { opus: t(input) } });
const withSpend = (s: SessionState, input: number): SessionState => ({ ...s, spend: spent(input) });

describe("the ledger's files", () => {
  it("one file per session and UTC day; every session's lines of the days the window touches are read", () => {
    const dir = freshDir();
    appendLedgerLine(dir, "s1", line(NOW - 30 * HOUR, 0, 10));
    appendLedgerLine(dir, "s1", line(NOW - HOUR, 10, 15));
    appendLedgerLine(dir, "s2", line(NOW, 0, 7));
    expect(ledgerFile(dir, "s1", NOW)).toBe(join(dir, "ledger", "2026-12-01", "s1.jsonl"));
    expect(readdirSync(join(dir, "ledger")).sort()).toEqual(["2026-11-30", "2026-12-01"]);
    const today = readLedger(dir, NOW - 2 * HOUR, NOW);
    expect([...today.keys()].sort()).toEqual(["s1", "s2"]);
    expect(today.get("s1")).toEqual([line(NOW - HOUR, 10, 15)]);
    expect(readLedger(dir, NOW - 40 * HOUR, NOW).get("s1")).toHaveLength(2);
    expect(windowSpend(dir, NOW, 5).tokens).toEqual(t(12));
    expect(windowSpend(dir, NOW, 48).tokens).toEqual(t(22));
  });

  it("skips torn and foreign lines and files that are not a session's", () => {
    const dir = freshDir();
    appendLedgerLine(dir, "s1", line(NOW, 0, 10));
    const folder = join(dir, "ledger", dayOf(NOW));
    appendFileSync(join(folder, "s1.jsonl"), '{"v":1,"t":1,"from":{}\n{"v":2}\nnot json\n\n');
    writeFileSync(join(folder, "notes.txt"), "hello");
    writeFileSync(join(folder, "..jsonl"), `${JSON.stringify(line(NOW, 0, 99))}\n`);
    mkdirSync(join(folder, "sub.jsonl"));
    expect(windowSpend(dir, NOW, 5).tokens).toEqual(t(10));
  });

  it("adds this session's growth not written yet to its own lines", () => {
    const dir = freshDir();
    appendLedgerLine(dir, "s1", line(NOW - 10, 0, 10));
    expect(windowSpend(dir, NOW, 5, { sessionId: "s1", line: line(NOW, 10, 25) }).tokens).toEqual(t(25));
    expect(windowSpend(dir, NOW, 5, { sessionId: "s2", line: line(NOW, 0, 5) }).tokens).toEqual(t(15));
  });

  it("prunes only the days no window can reach", () => {
    const dir = freshDir();
    const old = NOW - (LEDGER_KEEP_DAYS + 1) * 24 * HOUR;
    const kept = NOW - (LEDGER_KEEP_DAYS - 1) * 24 * HOUR;
    appendLedgerLine(dir, "s1", line(old, 0, 1));
    appendLedgerLine(dir, "s1", line(kept, 1, 2));
    mkdirSync(join(dir, "ledger", "not-a-day"));
    pruneLedger(dir, NOW);
    expect(readdirSync(join(dir, "ledger")).sort()).toEqual([dayOf(kept), "not-a-day"].sort());
    pruneLedger(freshDir(), NOW); // no ledger at all: nothing to do
  });
});

describe("withLedger: every transaction that makes the session's spend grow writes its stretch", () => {
  it("writes the stretch from the stored state to the new one, and nothing when spend did not grow", async () => {
    const dir = freshDir();
    const store = withLedger(new FileStateStore(dir), dir, () => new Date(NOW));
    await store.transact("s1", () => ({ state: withSpend(newSession("s1"), 10), result: 0 }));
    await store.transact("s1", (s) => ({ state: withSpend(s!, 10), result: 0 }));
    await store.transact("s1", (s) => ({ state: withSpend(s!, 25), result: 0 }));
    expect(readLedger(dir, NOW, NOW).get("s1")).toEqual(
      [line(NOW, 0, 10), line(NOW, 10, 25)].map((l) => ({ ...l, from: { opus: l.from.opus! } })),
    );
    expect(store.read("s1")?.spend?.tokens.input).toBe(25);
  });

  it("a transaction whose writes wait for the answer hands on its line first, then the state, both under the lock", async () => {
    const dir = freshDir();
    const store = withLedger(new FileStateStore(dir), dir, () => new Date(NOW));
    const queued: Array<() => void> = [];
    await store.transact("s1", () => ({ state: withSpend(newSession("s1"), 10), result: 0, later: (w) => void queued.push(w) }));
    expect(queued).toHaveLength(2);
    expect(existsSync(join(dir, "ledger"))).toBe(false);
    queued[0]!();
    expect(readLedger(dir, NOW, NOW).get("s1")).toHaveLength(1);
    expect(existsSync(new FileStateStore(dir).path("s1"))).toBe(false);
    queued[1]!();
    expect(new FileStateStore(dir).read("s1")?.spend?.tokens.input).toBe(10);
  });

  it("a transaction that fails writes no line", async () => {
    const dir = freshDir();
    const store = withLedger(new FileStateStore(dir), dir, () => new Date(NOW));
    await expect(
      store.transact("s1", () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(join(dir, "ledger"))).toBe(false);
  });

  it("a ledger the data folder refuses (a planted link) costs the hook nothing but the line", async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    symlinkSync(scratch, join(dir, "ledger"));
    const store = withLedger(new FileStateStore(dir), dir, () => new Date(NOW));
    await store.transact("s1", () => ({ state: withSpend(newSession("s1"), 10), result: 0 }));
    expect(store.read("s1")?.spend?.tokens.input).toBe(10);
    expect(readdirSync(scratch).some((name) => /^\d{4}-/.test(name))).toBe(false);
  });
});

// ---- Many sessions at once, through the real hook processes ----

const SESSIONS = 4;
const WAVES = 5;
const MODEL = "claude-opus-4-5-20251101";

/** One assistant message with a Bash call and the usage it reports, then its result: what Claude Code writes. */
function message(session: string, wave: number, input: number): string {
  const id = `toolu_${session}_${wave}`;
  const usage = { input_tokens: input, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const assistant = {
    type: "assistant",
    uuid: `u-${id}`,
    sessionId: session,
    isSidechain: false,
    timestamp: new Date().toISOString(),
    message: {
      id: `msg_${id}`,
      model: MODEL,
      role: "assistant",
      content: [{ type: "tool_use", id, name: "Bash", input: { command: `echo ${wave}` } }],
      usage,
    },
  };
  const result = {
    type: "user",
    uuid: `r-${id}`,
    sessionId: session,
    isSidechain: false,
    timestamp: new Date().toISOString(),
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: `${wave}` }] },
  };
  return `${JSON.stringify(assistant)}\n${JSON.stringify(result)}\n`;
}

describe(`${SESSIONS} sessions at once, each with its hook server answering two calls at once, ${WAVES} waves`, () => {
  it("the window holds every message of every session once: nothing lost, nothing counted twice", async () => {
    const dir = freshDir();
    const projects = join(scratch, "projects");
    mkdirSync(projects, { recursive: true });
    // A window budget no session reaches: every hook reads the ledger while the others write it.
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: scratch,
      UTILITY_DATA_DIR: dir,
      CLAUDE_PLUGIN_OPTION_WINDOW_COST_BUDGET_USD: "100000",
    };
    const sessions = Array.from({ length: SESSIONS }, (_, i) => `ledger-${i}-${process.pid}`);
    // One hook server per session, as Claude Code starts one per session; all share the data folder.
    const servers = await Promise.all(sessions.map(() => startServer(env)));
    let sent = 0;
    for (let wave = 0; wave < WAVES; wave++) {
      const hooks: Array<Promise<{ content: { text: string }[]; isError?: boolean }>> = [];
      for (const [i, session] of sessions.entries()) {
        const input = 1000 * (i + 1) + wave;
        sent += input + 5;
        const transcript = join(projects, `${session}.jsonl`);
        appendFileSync(transcript, message(session, wave, input));
        const hookInput = {
          session_id: session,
          transcript_path: transcript,
          cwd: scratch,
          tool_name: "Bash",
          tool_input: { command: `echo next ${wave}` },
        };
        for (const call of ["a", "b"])
          hooks.push(
            servers[i]!.call("pre_tool_use", preToolUseArgs({ ...hookInput, tool_use_id: `toolu_next_${session}_${wave}_${call}` })),
          );
      }
      // Nothing refused: no answer but, at most, what is left of the window's budget (SPEC §16).
      for (const done of await Promise.all(hooks)) expect(answerText(done)).toMatch(/^\{\}$|^utility budget left: window \$/);
    }
    for (const server of servers) expect(await server.close()).toBe(0);
    expect(servers.map((server) => server.stderr())).toEqual(sessions.map(() => ""));
    expect(existsSync(join(dir, "errors.jsonl"))).toBe(false);
    const end = Date.now();
    const window = windowSpend(dir, end, 5);
    expect(window.tokens.input + window.tokens.output).toBe(sent);
    expect(window.byModel[MODEL]?.output).toBe(SESSIONS * WAVES * 5);
    // Each session's own lines add up to what its state counted.
    const ledger = readLedger(dir, windowStart(end, 5), end);
    for (const session of sessions) {
      const state = new FileStateStore(dir).read(session)!;
      expect(spendInWindow([ledger.get(session)!], windowStart(end, 5), end).tokens).toEqual(state.spend!.tokens);
    }
    // Written again (a hook killed after its line, before its state): the same stretches, counted once.
    for (const session of sessions) for (const l of ledger.get(session)!) appendLedgerLine(dir, session, l);
    expect(windowSpend(dir, end, 5).tokens).toEqual(window.tokens);

    // A new session under a window budget of what they spent is refused; a cent more lets it run.
    const cost = estimateCostUsd(window.byModel, DEFAULT_PRICES);
    const call = { tool: "Bash", input: { command: "true" }, windowSpend: windowSpend(dir, end, 5) };
    const refused = decideInSession(newSession("late"), "main", call, { budgets: {}, session: { windowCostBudgetUsd: cost } });
    expect(refused.decision.decision === "refused" && refused.decision.reason).toContain("window_cost_budget_usd");
    expect(
      decideInSession(newSession("late"), "main", call, { budgets: {}, session: { windowCostBudgetUsd: cost + 0.01 } }).decision.decision,
    ).toBe("observed");
    expect(readFileSync(join(dir, "ledger", dayOf(end), `${sessions[0]}.jsonl`), "utf8").endsWith("\n")).toBe(true);
  }, 120_000);
});

/** A hook's answer through the server: `{}`, or the context it gives. */
function answerText(done: unknown): string {
  const text = (done as { content: Array<{ text: string }> }).content[0]!.text;
  const parsed = JSON.parse(text) as { hookSpecificOutput?: { permissionDecision?: string; additionalContext?: string } };
  if (parsed.hookSpecificOutput?.permissionDecision !== undefined) return text;
  return parsed.hookSpecificOutput?.additionalContext ?? text;
}
