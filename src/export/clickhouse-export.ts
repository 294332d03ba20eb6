// Writes step rows and task rows into ClickHouse so that sending twice stores
// nothing twice. ClickHouse 18.16 has no insert-time dedupe outside replicated
// tables, so before each insert the ids already stored for the sessions at
// hand are read back and only the others are sent; the tables are
// ReplacingMergeTree on the same key, so two exports racing still merge to one
// row, and queries that must be exact read with FINAL (docs/team.md).
import { clickHouse, sqlString, type ClickHouse } from "./clickhouse-http.js";
import { STEPS_TABLE, TABLES, TASKS_TABLE } from "./schema.js";
import type { StepRow, TaskRow } from "./rows.js";

export interface SessionRows {
  session: string;
  steps: StepRow[];
  tasks: TaskRow[];
}

export interface ExportCounts {
  sessions: number;
  steps: { sent: number; stored: number };
  tasks: { sent: number; stored: number };
}

/** Sessions per round trip: the IN list of one read-back. */
const BATCH = 200;

export async function createTables(ch: ClickHouse): Promise<void> {
  await ch.run(STEPS_TABLE);
  await ch.run(TASKS_TABLE);
}

function inList(sessions: readonly string[]): string {
  return sessions.map(sqlString).join(", ");
}

/** The step ids already stored for these sessions; only those among `among` when given (the live export's few rows). */
async function storedStepIds(ch: ClickHouse, sessions: readonly string[], among?: readonly string[]): Promise<Set<string>> {
  const only = among ? ` AND id IN (${inList(among)})` : "";
  const text = await ch.run(`SELECT id FROM ${TABLES.steps} WHERE session_id IN (${inList(sessions)})${only} FORMAT TabSeparated`);
  return new Set(text.split("\n").filter((l) => l !== ""));
}

/** The highest version stored of each task of these sessions. */
async function storedTaskVersions(ch: ClickHouse, sessions: readonly string[]): Promise<Map<string, number>> {
  const text = await ch.run(
    `SELECT id, max(version) FROM ${TABLES.tasks} WHERE session_id IN (${inList(sessions)}) GROUP BY id FORMAT TabSeparated`,
  );
  const versions = new Map<string, number>();
  for (const line of text.split("\n")) {
    const tab = line.lastIndexOf("\t");
    if (tab > 0) versions.set(line.slice(0, tab).replace(/\\t/g, "\t").replace(/\\\\/g, "\\"), Number(line.slice(tab + 1)));
  }
  return versions;
}

async function insert(ch: ClickHouse, table: string, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  await ch.run(`INSERT INTO ${table} FORMAT JSONEachRow`, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
}

async function exportBatch(ch: ClickHouse, batch: readonly SessionRows[], counts: ExportCounts, narrow = false): Promise<void> {
  const sessions = batch.map((b) => b.session);
  const among = narrow ? batch.flatMap((b) => b.steps.map((row) => row.id)) : undefined;
  const noSteps = among?.length === 0;
  const noTasks = narrow && batch.every((b) => b.tasks.length === 0);
  const [ids, versions] = await Promise.all([
    noSteps ? new Set<string>() : storedStepIds(ch, sessions, among),
    noTasks ? new Map<string, number>() : storedTaskVersions(ch, sessions),
  ]);
  const steps = batch.flatMap((b) => b.steps).filter((row) => !ids.has(row.id));
  const unique = [...new Map(steps.map((row) => [row.id, row])).values()];
  const tasks = batch.flatMap((b) => b.tasks).filter((row) => row.version > (versions.get(row.id) ?? 0));
  await insert(ch, TABLES.steps, unique);
  await insert(ch, TABLES.tasks, tasks);
  counts.steps.sent += unique.length;
  counts.steps.stored += ids.size;
  counts.tasks.sent += tasks.length;
  counts.tasks.stored += versions.size;
}

function noCounts(sessions: number): ExportCounts {
  return { sessions, steps: { sent: 0, stored: 0 }, tasks: { sent: 0, stored: 0 } };
}

/**
 * One session's rows as the live export has them (src/clickhouse/live.ts): the same read-back, of only the ids at
 * hand, and the same version check of its tasks, so live and `utility export` store nothing twice.
 */
export async function sendSessionRows(ch: ClickHouse, rows: SessionRows): Promise<ExportCounts> {
  const counts = noCounts(1);
  await exportBatch(ch, [rows], counts, true);
  return counts;
}

/** Creates the tables if missing, then sends what the server does not hold yet. */
export async function exportToClickHouse(url: URL, sessions: readonly SessionRows[]): Promise<ExportCounts> {
  const ch = clickHouse(url);
  await createTables(ch);
  const counts = noCounts(sessions.length);
  for (let i = 0; i < sessions.length; i += BATCH) await exportBatch(ch, sessions.slice(i, i + BATCH), counts);
  return counts;
}
