/**
 * The live OTLP export (SPEC §17): after each hook's answer, in the server's
 * `later` queue (src/server/serve.ts), the step-log lines the session gained
 * are mapped to log records (./records.ts) and handed to the SDK bundle,
 * which batches and sends them on its own timers; a task's spend goes out
 * when the scope stops (Stop, SubagentStop) or the scope's next task begins.
 * Nothing here waits for the network: an endpoint that is down, slow or
 * silent delays no call. The SDK itself is loaded by dynamic import
 * (./shim.ts, ./load.ts), only when otlp_endpoint is set.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { dataDir, isSafeId, sessionLogPath } from "../state/paths.js";
import { parseLogLines } from "../summary/load.js";
import { scopeKey } from "../log/record.js";
import { promptKey } from "../ingest/prompts.js";
import { sha256Hex } from "../engine/sha256.js";
import { stepRow, taskRows, type SessionContext, type TaskRow } from "../export/rows.js";
import { readFrom } from "../export/log-tail.js";
import type { PriceTable } from "../engine/prices.js";
import { stepRecords, taskRecord } from "./records.js";
import { takeSpools, writeSpool } from "./spool.js";
import { processAlive } from "../state/process-alive.js";
import { NO_PROGRESS, progressSessions, readProgress, writeProgress, type Progress } from "./progress.js";
import type { OtlpCounts, OtlpRecord, OtlpSink, OtlpTarget, StartSink } from "./types.js";

type Env = Record<string, string | undefined>;
type Input = Record<string, unknown>;

export interface LiveExport {
  /** Called once a hook is answered: queues the export of what it wrote, for after the answer. */
  after(event: string, input: Input): void;
  /** Sends what is queued, waiting at most `ms` (the server's exit). */
  close(ms: number): Promise<void>;
}

export interface LiveOptions {
  later: (work: () => void) => void;
  prices: () => PriceTable;
  /** The SDK's sink: ./sdk.ts, loaded when first needed (./shim.ts). */
  startSink: StartSink;
  /** Who runs the sessions (`user@host`: src/export/sources.ts defaultDeveloper). */
  developer: string;
  /** The plugin's own trouble, for the error log. */
  trouble: (message: string) => void;
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "";
  }
}

/** The tasks that ended and were not sent yet: each scope's but its last, and the last of the scope that just stopped. */
export function endedTaskRows(rows: readonly TaskRow[], sent: readonly string[], stopped: string | undefined): TaskRow[] {
  const last = new Map<string, number>();
  for (const row of rows) last.set(row.scope, Math.max(last.get(row.scope) ?? 0, row.task));
  return rows.filter((row) => !sent.includes(row.id) && (row.task < last.get(row.scope)! || row.scope === stopped));
}

/** The scope a Stop or SubagentStop ends the task of; undefined for the other events. */
export function stoppedScope(event: string, input: Input): string | undefined {
  if (event === "Stop") return "main";
  return event === "SubagentStop" ? scopeKey({ agentId: String(input.agent_id ?? "") }) : undefined;
}

class Live implements LiveExport {
  private readonly dir: string;
  /** Each session this server sends for; `own` when it answers its hooks (a caught-up one keeps its own counts). */
  private readonly progress = new Map<string, { saved: Progress; base: Progress; own: boolean }>();
  private readonly promptIds = new Map<string, string>();
  private readonly ctx: SessionContext;
  private readonly sink: OtlpSink;
  private caughtUp = false;

  constructor(
    env: Env,
    private readonly target: OtlpTarget,
    private readonly options: LiveOptions,
  ) {
    this.dir = dataDir(env);
    this.ctx = { developer: options.developer, project: "", promptIds: this.promptIds };
    this.sink = options.startSink(target, { onCounts: () => this.saveAll() });
  }

  private save(session: string): void {
    const entry = this.progress.get(session);
    if (!entry) return;
    if (!entry.own) return writeProgress(this.dir, session, entry.saved);
    const c: OtlpCounts = this.sink.counts();
    const { lastError: _old, ...saved } = entry.saved;
    entry.saved = {
      ...saved,
      sent: entry.base.sent + c.sent,
      dropped: entry.base.dropped + c.dropped,
      queued: c.queued,
      endpoint: hostOf(this.target.endpoint),
      pid: process.pid,
      project: this.ctx.project,
      ...(c.lastError ? { lastError: c.lastError } : {}),
    };
    writeProgress(this.dir, session, entry.saved);
  }

  private saveAll(): void {
    for (const session of this.progress.keys()) {
      try {
        this.save(session);
      } catch (error) {
        this.options.trouble(`OTLP export: its progress cannot be written (${String(error)})`);
      }
    }
  }

  private entryOf(session: string, own = true) {
    let entry = this.progress.get(session);
    if (!entry) {
      const saved = readProgress(this.dir, session) ?? { ...NO_PROGRESS, tasksSent: [] };
      entry = { saved, base: { ...saved }, own };
      this.progress.set(session, entry);
    }
    entry.own ||= own;
    return entry;
  }

  /**
   * Once, with the first answer: the records servers before this one could not send (./spool.ts), and the lines
   * other sessions' logs gained after their server stopped (SessionEnd's record, written by its command hook), for
   * the sessions export has seen whose server no longer runs.
   */
  private catchUp(current: string): void {
    if (this.caughtUp) return;
    this.caughtUp = true;
    const spooled = takeSpools(this.dir);
    if (spooled.length > 0) this.sink.emit(spooled);
    for (const session of progressSessions(this.dir)) {
      if (session === current || !isSafeId(session)) continue;
      const saved = readProgress(this.dir, session);
      if (!saved || (saved.pid !== undefined && saved.pid !== process.pid && processAlive(saved.pid))) continue;
      const { saved: p } = this.entryOf(session, false);
      const records = this.newSteps(session, p);
      if (records.length === 0) continue;
      records.push(...this.endedTasks(session, p, "main"));
      this.sink.emit(records);
      this.save(session);
    }
  }

  /** The session's context: a caught-up session's project is the one its own server saw. */
  private ctxOf(p: Progress): SessionContext {
    return p.project !== undefined && p.pid !== process.pid ? { ...this.ctx, project: p.project } : this.ctx;
  }

  /** The step records of the lines the log gained. */
  private newSteps(session: string, p: Progress): OtlpRecord[] {
    const { text, bytes } = readFrom(sessionLogPath(this.dir, session), p.offset);
    if (bytes === 0) return [];
    p.offset += bytes;
    const out: OtlpRecord[] = [];
    for (const entry of parseLogLines(text).lines) {
      const r = entry.record;
      if (r.event === "UserPromptSubmit" && r.agentId === undefined && r.promptId) p.promptKey = r.promptId;
      out.push(...stepRecords(stepRow(entry, this.ctxOf(p), p.promptKey, sha256Hex)));
    }
    return out;
  }

  private endedTasks(session: string, p: Progress, stopped: string | undefined): OtlpRecord[] {
    const { lines } = parseLogLines(readFileSync(sessionLogPath(this.dir, session), "utf8"));
    const rows = taskRows(
      lines.map((l) => l.record),
      this.ctxOf(p),
      this.options.prices(),
    );
    const ended = endedTaskRows(rows, p.tasksSent, stopped);
    p.tasksSent.push(...ended.map((row) => row.id));
    return ended.map(taskRecord);
  }

  private work(session: string, event: string, input: Input): void {
    this.catchUp(session);
    const { saved } = this.entryOf(session);
    const records = this.newSteps(session, saved);
    const stopped = stoppedScope(event, input);
    const startsTask = records.some((r) => r.attributes["utility.hook_event"] === "UserPromptSubmit");
    if (stopped || startsTask) records.push(...this.endedTasks(session, saved, stopped));
    this.sink.emit(records);
    this.save(session);
  }

  after(event: string, input: Input): void {
    const session = input.session_id;
    if (typeof session !== "string" || !isSafeId(session)) return;
    if (typeof input.prompt_id === "string") this.promptIds.set(promptKey(input.prompt_id), input.prompt_id);
    if (this.ctx.project === "" && typeof input.cwd === "string") this.ctx.project = basename(input.cwd);
    this.options.later(() => {
      try {
        this.work(session, event, input);
      } catch (error) {
        this.options.trouble(`OTLP export: ${String(error)}`);
      }
    });
  }

  async close(ms: number): Promise<void> {
    // What the sessions' logs gained since the last answer (SessionEnd's record, written by its command hook).
    for (const [session, entry] of this.progress) {
      try {
        if (entry.own) this.work(session, "close", {});
      } catch (error) {
        this.options.trouble(`OTLP export: ${String(error)}`);
      }
    }
    // Claude Code stops the server soon after the session ends: what is unsent is kept first, then sent if it can be.
    this.spool();
    await this.sink.flush(ms);
    this.spool();
    this.saveAll();
  }

  private spool(): void {
    try {
      writeSpool(this.dir, this.sink.unsent());
    } catch (error) {
      this.options.trouble(`OTLP export: its unsent records cannot be kept (${String(error)})`);
    }
  }
}

export function liveExport(env: Env, target: OtlpTarget, options: LiveOptions): LiveExport {
  return new Live(env, target, options);
}
