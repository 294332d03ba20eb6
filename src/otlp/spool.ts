/**
 * What a hook server that is ending could not send (SPEC §17): Claude Code
 * stops its server within about a second of the session's end, so the
 * records still unsent then (the endpoint down, slow or silent) are written
 * to `<data>/otlp/spool-<pid>.jsonl`, and the next server with export on
 * takes them (renamed first, so two never take one) and sends them with its
 * own. A server killed before it wrote its spool loses its queue; one killed
 * after a send and before it rewrote its spool sends those records again,
 * with the same `utility.record_id`.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRealFolder, PRIVATE_FILE } from "../state/paths.js";
import type { OtlpRecord } from "./types.js";

const folder = (dataDir: string) => join(dataDir, "otlp");
const ownSpool = (dataDir: string) => join(folder(dataDir), `spool-${process.pid}.jsonl`);

/** Writes the records this server could not send, or removes its spool when there are none. */
export function writeSpool(dataDir: string, records: readonly OtlpRecord[]): void {
  const file = ownSpool(dataDir);
  if (records.length === 0) return rmSync(file, { force: true });
  ensureRealFolder(folder(dataDir));
  const temp = `${file}.tmp`;
  rmSync(temp, { force: true });
  writeFileSync(temp, records.map((r) => `${JSON.stringify(r)}\n`).join(""), { flag: "wx", mode: PRIVATE_FILE });
  renameSync(temp, file);
}

function isRecord(value: unknown): value is OtlpRecord {
  const r = value as Partial<OtlpRecord> | null;
  return typeof r?.eventName === "string" && typeof r.timeMs === "number" && typeof r.body === "string" && typeof r.attributes === "object";
}

/** Takes every spool other servers left: their records, the files gone. */
export function takeSpools(dataDir: string): OtlpRecord[] {
  let names: string[];
  try {
    names = readdirSync(folder(dataDir)).filter((n) => /^spool-\d+\.jsonl$/.test(n) && n !== `spool-${process.pid}.jsonl`);
  } catch {
    return [];
  }
  const out: OtlpRecord[] = [];
  for (const name of names) {
    const taken = join(folder(dataDir), `${name}.taken-${process.pid}`);
    try {
      renameSync(join(folder(dataDir), name), taken);
    } catch {
      continue; // another server took it first
    }
    for (const line of readFileSync(taken, "utf8").split("\n")) {
      try {
        const record: unknown = JSON.parse(line);
        if (isRecord(record)) out.push(record);
      } catch {
        continue;
      }
    }
    rmSync(taken, { force: true });
  }
  return out;
}
