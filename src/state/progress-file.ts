/**
 * One session's progress file of a live export (OTLP, ClickHouse: SPEC §17),
 * `<data>/<folder>/<session>.json`: read through its schema (undefined when
 * missing or unreadable), written whole (a temporary file renamed over it,
 * 0600), and the sessions that have one.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as z from "zod/mini";
import { ensureRealFolder, PRIVATE_FILE, safeId } from "./paths.js";

export interface ProgressFiles<T> {
  path(dataDir: string, sessionId: string): string;
  read(dataDir: string, sessionId: string): T | undefined;
  write(dataDir: string, sessionId: string, progress: T): void;
  sessions(dataDir: string): string[];
}

export function progressFiles<S extends z.ZodMiniType>(folder: string, schema: S): ProgressFiles<z.infer<S>> {
  const path = (dataDir: string, sessionId: string) => join(dataDir, folder, `${safeId("session id", sessionId)}.json`);
  return {
    path,
    read(dataDir, sessionId) {
      try {
        const parsed = schema.safeParse(JSON.parse(readFileSync(path(dataDir, sessionId), "utf8")));
        return parsed.success ? (parsed.data as z.infer<S>) : undefined;
      } catch {
        return undefined;
      }
    },
    write(dataDir, sessionId, progress) {
      const file = path(dataDir, sessionId);
      ensureRealFolder(join(dataDir, folder));
      const temp = `${file}.${process.pid}.tmp`;
      rmSync(temp, { force: true });
      writeFileSync(temp, `${JSON.stringify(progress)}\n`, { flag: "wx", mode: PRIVATE_FILE });
      renameSync(temp, file);
    },
    sessions(dataDir) {
      try {
        return readdirSync(join(dataDir, folder))
          .filter((n) => n.endsWith(".json"))
          .map((n) => n.slice(0, -".json".length));
      } catch {
        return [];
      }
    },
  };
}
