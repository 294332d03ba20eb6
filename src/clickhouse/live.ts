/**
 * The live ClickHouse export (SPEC §17, docs/team.md): with clickhouse_url
 * set, the hook server writes the session's step rows and task rows into
 * ClickHouse as they happen, with `utility export --clickhouse`'s rows,
 * tables and read-back (./sender.ts), so the two store nothing twice.
 *
 * - Never on the user's path: a hook's answer only notes, in the server's
 *   `later` queue, that its session has lines to send; a timer (unref'd)
 *   sends them at most once per `delayMs`, one send at a time, each request
 *   given up after `timeoutMs`. Nothing a call waits for touches the network.
 * - The step log is the spool: `<data>/clickhouse/<session>.json` (./progress.ts)
 *   says how far into the log ClickHouse holds every row; what is after it is
 *   sent at the next flush, after a failure with a growing wait, at the
 *   server's end within its bound, else by the next session's server (the
 *   sessions whose server is gone). Memory holds no queue: bounded by design.
 * - A task's row goes out when its scope stops or the next task begins, and
 *   at the end; a newer version replaces it (ReplacingMergeTree).
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { dataDir, isSafeId, sessionLogPath } from "../state/paths.js";
import { parseLogLines } from "../summary/load.js";
import { promptKey } from "../ingest/prompts.js";
import { sha256Hex } from "../engine/sha256.js";
import { taskRows, type SessionContext, type TaskRow } from "../export/rows.js";
import { logSize, readFrom } from "../export/log-tail.js";
import type { PriceTable } from "../engine/prices.js";
import { processAlive } from "../state/process-alive.js";
import { clickHouseHost } from "../optin/clickhouse-config.js";
import { errorText, lineChunks, retryDelay, stepRowsAfter, tasksBehind, type LineChunk } from "./plan.js";
import {
  clickHouseSessions,
  NO_CLICKHOUSE_PROGRESS,
  readClickHouseProgress,
  writeClickHouseProgress,
  type ClickHouseProgress,
} from "./progress.js";
import type { ClickHouseSender, StartSender } from "./types.js";

type Env = Record<string, string | undefined>;
type Input = Record<string, unknown>;

export interface ClickHouseLive {
  /** Called once a hook is answered: notes, for after the answer, that its session has rows to send. */
  after(event: string, input: Input): void;
  /** Sends what is left, waiting at most `ms` (the server's exit). */
  close(ms: number): Promise<void>;
  /**
   * Loads the sender, creates the tables and sends what ended servers left, on a timer once the server has
   * started: Claude Code starts it with the session, so the first request's cost (Node's fetch compiles its HTTP
   * client then, about 65 ms of CPU) falls there and not between two calls.
   */
  start(): void;
}

export interface ClickHouseLiveOptions {
  later: (work: () => void) => void;
  prices: () => PriceTable;
  /** Who runs the sessions (`user@host`: src/export/developer.ts). */
  developer: string;
  /** The plugin's own trouble, for the error log. */
  trouble: (message: string) => void;
  /** The sender, loaded when first needed (./load.ts). */
  loadSender: () => Promise<StartSender>;
  /** At most one send per this many milliseconds (default 1500). */
  delayMs?: number;
  /** One request's limit (default 5000). */
  timeoutMs?: number;
  /** Step rows per send (default 500). */
  maxLines?: number;
}

/** The events after which a task's spend is due: a task begins or a scope stops. */
const TASK_EVENTS = new Set(["UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd"]);

interface Entry {
  p: ClickHouseProgress;
  /** This server answers its hooks (else a session caught up from a server gone). */
  own: boolean;
  tasksDue: boolean;
}

/** Thrown past the loop over sessions once a send failed: the others wait for the next try. */
class SendFailed extends Error {}

class Live implements ClickHouseLive {
  private readonly dir: string;
  private readonly sessions = new Map<string, Entry>();
  private readonly promptIds = new Map<string, string>();
  private readonly ctx: SessionContext;
  private readonly host: string;
  private readonly delayMs: number;
  private sender: Promise<ClickHouseSender> | undefined;
  private tablesReady = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private closing = false;
  private caughtUp = false;

  constructor(
    env: Env,
    private readonly url: string,
    private readonly options: ClickHouseLiveOptions,
  ) {
    this.dir = dataDir(env);
    this.ctx = { developer: options.developer, project: "", promptIds: this.promptIds };
    this.host = clickHouseHost(url);
    this.delayMs = options.delayMs ?? 1500;
  }

  after(event: string, input: Input): void {
    const session = input.session_id;
    if (typeof session !== "string" || !isSafeId(session)) return;
    if (typeof input.prompt_id === "string") this.promptIds.set(promptKey(input.prompt_id), input.prompt_id);
    if (this.ctx.project === "" && typeof input.cwd === "string") this.ctx.project = basename(input.cwd);
    this.options.later(() => {
      try {
        const entry = this.entryOf(session, true);
        entry.tasksDue ||= TASK_EVENTS.has(event);
        this.schedule(this.delayMs);
      } catch (error) {
        this.options.trouble(`ClickHouse export: ${errorText(error)}`);
      }
    });
  }

  start(): void {
    this.schedule(0);
  }

  async close(ms: number): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.timer);
    if (this.sessions.size === 0) return;
    for (const entry of this.sessions.values()) entry.tasksDue ||= entry.own;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    // What the logs gained since the last send (SessionEnd's record), after the send in flight; at most `ms` in all.
    const last = (async () => {
      await this.running;
      await this.flush();
    })();
    await Promise.race([last, bound]);
    clearTimeout(timer);
  }

  private entryOf(session: string, own: boolean): Entry {
    let entry = this.sessions.get(session);
    if (!entry) {
      const p = readClickHouseProgress(this.dir, session) ?? { ...NO_CLICKHOUSE_PROGRESS, tasks: {} };
      entry = { p, own, tasksDue: !own };
      this.sessions.set(session, entry);
      // Written at once: a server that ends before its first send leaves the session for the next one to send.
      if (own) this.save(session, entry);
    }
    entry.own ||= own;
    return entry;
  }

  private save(session: string, entry: Entry): void {
    try {
      if (entry.own) entry.p = { ...entry.p, pid: process.pid, project: this.ctx.project };
      writeClickHouseProgress(this.dir, session, { ...entry.p, host: this.host });
    } catch (error) {
      this.options.trouble(`ClickHouse export: its progress cannot be written (${errorText(error)})`);
    }
  }

  private schedule(ms: number): void {
    if (this.closing) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.flush().finally(() => {
        this.running = undefined;
        const retry = this.failures > 0;
        if (retry || this.again) this.schedule(retry ? retryDelay(this.failures, this.delayMs) : this.delayMs);
        this.again = false;
      });
    }, ms);
    this.timer.unref();
  }

  /** Sends what every session's log gained; never rejects (a failure is counted and kept for the next try). */
  private async flush(): Promise<void> {
    try {
      const sender = await this.ready();
      this.catchUp();
      for (const [session, entry] of this.sessions) await this.sendSession(sender, session, entry);
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      if (!(error instanceof SendFailed)) this.failAll(error);
    }
  }

  /** The sender, loaded once, and the tables, created once. */
  private async ready(): Promise<ClickHouseSender> {
    this.sender ??= this.options.loadSender().then((start) => start(this.url, this.options.timeoutMs ?? 5000));
    const sender = await this.sender.catch((error: unknown) => {
      this.sender = undefined;
      throw new Error(`the ClickHouse sender did not load (${errorText(error)})`);
    });
    if (!this.tablesReady) await sender.ready();
    this.tablesReady = true;
    return sender;
  }

  /** A failure before any session's send (the sender, the tables): counted for every session waiting. */
  private failAll(error: unknown): void {
    for (const [session, entry] of this.sessions) {
      entry.p.failed += 1;
      entry.p.lastError = errorText(error);
      this.save(session, entry);
    }
  }

  /**
   * Once, with the first send: the sessions whose server is gone and whose log gained lines after the last row it
   * stored (SessionEnd's record, written by its command hook; what it could not send before it ended).
   */
  private catchUp(): void {
    if (this.caughtUp) return;
    this.caughtUp = true;
    for (const session of clickHouseSessions(this.dir)) {
      if (this.sessions.has(session) || !isSafeId(session)) continue;
      const saved = readClickHouseProgress(this.dir, session);
      if (!saved || (saved.pid !== undefined && saved.pid !== process.pid && processAlive(saved.pid))) continue;
      if (logSize(sessionLogPath(this.dir, session)) > saved.offset) this.entryOf(session, false);
    }
  }

  private ctxOf(entry: Entry): SessionContext {
    return entry.own || entry.p.project === undefined ? this.ctx : { ...this.ctx, project: entry.p.project };
  }

  private async sendSession(sender: ClickHouseSender, session: string, entry: Entry): Promise<void> {
    const chunks = lineChunks(readFrom(sessionLogPath(this.dir, session), entry.p.offset).text, this.options.maxLines ?? 500);
    entry.p.waiting = chunks.reduce((n, c) => n + c.lines, 0);
    if (chunks.length === 0 && !entry.tasksDue) return;
    if (chunks.length === 0) chunks.push({ text: "", bytes: 0, lines: 0 });
    for (const [i, chunk] of chunks.entries()) await this.sendChunk(sender, session, entry, chunk, i === chunks.length - 1);
  }

  private async sendChunk(sender: ClickHouseSender, session: string, entry: Entry, chunk: LineChunk, last: boolean): Promise<void> {
    const { rows, promptKey: key } = stepRowsAfter(parseLogLines(chunk.text).lines, this.ctxOf(entry), entry.p.promptKey, sha256Hex);
    const due = last && entry.tasksDue;
    if (due) entry.tasksDue = false;
    const tasks = due ? this.tasksToSend(session, entry) : [];
    try {
      const sent = await sender.send({ session, steps: rows, tasks });
      const stored = { ...entry.p.tasks, ...Object.fromEntries(tasks.map((t) => [t.id, t.version])) };
      const { lastError: _cleared, ...rest } = entry.p;
      entry.p = { ...rest, offset: rest.offset + chunk.bytes, promptKey: key, tasks: stored, sent: rest.sent + sent.steps + sent.tasks };
      entry.p.waiting = Math.max(0, entry.p.waiting - chunk.lines);
    } catch (error) {
      entry.tasksDue ||= due;
      entry.p.failed += 1;
      entry.p.lastError = errorText(error);
      throw new SendFailed(entry.p.lastError);
    } finally {
      this.save(session, entry);
    }
  }

  /** The session's tasks whose row ClickHouse holds an older version of, as far as this export knows. */
  private tasksToSend(session: string, entry: Entry): TaskRow[] {
    let text: string;
    try {
      text = readFileSync(sessionLogPath(this.dir, session), "utf8");
    } catch {
      return []; // the log is gone (retention): nothing left to say of its tasks
    }
    const { lines } = parseLogLines(text);
    const rows = taskRows(
      lines.map((l) => l.record),
      this.ctxOf(entry),
      this.options.prices(),
    );
    return tasksBehind(rows, entry.p.tasks);
  }
}

export function clickHouseLive(env: Env, url: string, options: ClickHouseLiveOptions): ClickHouseLive {
  return new Live(env, url, options);
}
