/**
 * `utility prune [--dry-run] [--older-than D] [--max-size S] [--json]`: deletes
 * the step logs and state files the retention rule no longer keeps (SPEC §8),
 * in every data folder the CLI reads. Without the flags, the rule is the
 * user's settings (`log_retention_days`, `log_max_mb`, read from Claude Code's
 * settings file) or the defaults. Never a session written in the last day,
 * nor the one it runs in, nor one whose gate is on while Claude Code can still
 * continue it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../../claude/places.js";
import { DAY_MS, formatBytes, parseDuration, parseSize, PRUNE_GRACE_MS, type RetentionRule } from "../../engine/retention.js";
import { pluginRefOf } from "../../claude/plugin-id.js";
import { pluginOptionsEnv } from "../../claude/plugin-settings.js";
import { parseUserConfig, retentionOf } from "../../optin/user-config.js";
import { dataDirs } from "../../state/locate.js";
import { pruneDataDir, type PruneResult } from "../../state/prune.js";
import { stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";

const ARGS = "[--dry-run] [--older-than D] [--max-size S] [--json]";

function flagRule(values: Parsed["values"]): Partial<RetentionRule> {
  const out: Partial<RetentionRule> = {};
  const age = stringOption(values.olderThan);
  if (age !== undefined) {
    const ms = parseDuration(age);
    if (ms === undefined)
      throw new UsageError(`--older-than is "${age}"; expected a duration such as 30d, 12h or 2w (a bare number is days).`);
    out.maxAgeMs = ms;
  }
  const size = stringOption(values.maxSize);
  if (size !== undefined) {
    const bytes = parseSize(size);
    if (bytes === undefined)
      throw new UsageError(`--max-size is "${size}"; expected a size such as 100MB, 1.5G or 500K (a bare number is MB).`);
    out.maxBytes = bytes;
  }
  return out;
}

/** The user's rule for a data folder's plugin, from Claude Code's settings, else the defaults. */
function settingsRule(env: CliIo["env"], dataDir: string): RetentionRule {
  const options = pluginOptionsEnv(env, pluginRefOf(env, dataDir).id);
  const r = retentionOf(parseUserConfig({ ...options, ...env }));
  return { maxAgeMs: r.maxAgeDays * DAY_MS, maxBytes: r.maxMb * 1024 * 1024 };
}

function describe(result: PruneResult, rule: RetentionRule, dryRun: boolean): string[] {
  const { plan } = result;
  const removed = plan.remove.reduce((sum, item) => sum + item.bytes, 0);
  const days = Math.round((rule.maxAgeMs / DAY_MS) * 100) / 100;
  const lines = [
    `${result.dataDir}: keep ${days} day${days === 1 ? "" : "s"}, up to ${formatBytes(rule.maxBytes)}`,
    ...plan.remove.map(
      (item) =>
        `  ${dryRun ? "would delete" : "deleted"} ${item.id} (${formatBytes(item.bytes)}, last written ${new Date(item.lastWrite).toISOString().slice(0, 10)}): ${item.why === "age" ? "older than the age limit" : "over the size limit"}`,
    ),
    ...result.gatedKept.map((id) => `  kept ${id}: its gate is on (/utility on) and Claude Code can still continue it`),
    `  ${dryRun ? "would delete" : "deleted"} ${plan.remove.length} (${formatBytes(removed)}); kept ${plan.keep.length} (${formatBytes(plan.keptBytes)})`,
  ];
  return [...lines, ...result.trouble.map((t) => `  ${t}`)];
}

function runPrune({ values }: Parsed, io: CliIo): number {
  const flags = flagRule(values);
  const dryRun = values.dryRun === true;
  const now = Date.now();
  const current = io.env.CLAUDE_CODE_SESSION_ID;
  const dirs = dataDirs(io.env);
  const results = dirs
    .filter((dir) => existsSync(dir))
    .map((dir) => {
      const rule = { ...settingsRule(io.env, dir), ...flags };
      return {
        rule,
        result: pruneDataDir(
          dir,
          rule,
          { now, protect: new Set(current ? [current] : []), graceMs: PRUNE_GRACE_MS },
          { dryRun, projectsDir: join(configDir(io.env), "projects") },
        ),
      };
    });
  if (values.json) {
    printJson(io, {
      dryRun,
      folders: results.map(({ rule, result }) => ({
        dataDir: result.dataDir,
        rule,
        removed: result.plan.remove,
        kept: result.plan.keep.length,
        gatedKept: result.gatedKept,
        keptBytes: result.plan.keptBytes,
        deleted: result.deleted,
        trouble: result.trouble,
      })),
    });
  } else if (results.length === 0) io.stdout(`No data folder yet (looked in ${dirs.join(", ")}): nothing to prune.\n`);
  else for (const { rule, result } of results) io.stdout(`${describe(result, rule, dryRun).join("\n")}\n`);
  return results.some(({ result }) => result.trouble.length > 0) ? 1 : 0;
}

export const PRUNE: CommandSpec = {
  name: "prune",
  summary: "delete old step logs and state files (older than the age limit, or over the size limit)",
  usage: ARGS,
  options: [
    ["--dry-run", "list what would be deleted; delete nothing"],
    ["--older-than <d>", "age limit, such as 30d, 12h, 2w (default: your log_retention_days setting, else 30 days)"],
    ["--max-size <s>", "size limit, such as 100MB, 1G (default: your log_max_mb setting, else 100 MB)"],
    ["--json", "print JSON"],
  ],
  run: runPrune,
};
