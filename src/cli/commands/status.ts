import { existsSync } from "node:fs";
import { join } from "node:path";
import { readLogFile } from "../../summary/load.js";
import { renderStatus, type SessionView } from "../../summary/status-text.js";
import { dataDirs, latestSession, locateSessionData } from "../../state/locate.js";
import { sessionLogPath } from "../../state/paths.js";
import { FileStateStore } from "../../state/store.js";
import { sessionSpend } from "../../engine/session/views.js";
import { DEFAULT_PRICES, estimateCostUsd, withOverride } from "../../engine/prices.js";
import { zeroSpend } from "../../engine/spend.js";
import { spendJson } from "../../summary/spend.js";
import { pluginRefOf } from "../../claude/plugin-id.js";
import { describeUserConfigProblems } from "../../optin/user-config.js";
import { optionsFromSettings, readUserConfig } from "../../optin/managed.js";
import { stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";
import { otlpStatus } from "../../otlp/progress.js";
import { parseOtlpConfig } from "../../optin/otlp-config.js";
import { clickHouseStatus } from "../../clickhouse/progress.js";
import { parseClickHouseConfig } from "../../optin/clickhouse-config.js";

const ARGS = "[SESSION] [--session ID] [--json]";

/** Reads a session's state and log (the log's unreadable lines skipped), or undefined when no data folder holds it. */
export function loadSession(env: CliIo["env"], sessionId: string): SessionView | undefined {
  const dir = locateSessionData(env, sessionId);
  if (!dir) return undefined;
  const state = new FileStateStore(dir).read(sessionId);
  const file = sessionLogPath(dir, sessionId);
  const records = existsSync(file) ? readLogFile(file).records : [];
  // From a shell the options are the settings file's, as `/utility status` is handed them (second first-hour walk, surprise 3).
  const options = optionsFromSettings(env, dir);
  const userConfig = readUserConfig(options, dir);
  const problem = userConfig.problems.length > 0 ? describeUserConfigProblems(userConfig, pluginRefOf(options, dir)) : undefined;
  const otlp = otlpStatus(dir, sessionId, parseOtlpConfig(options).problems);
  const clickhouse = clickHouseStatus(dir, sessionId, parseClickHouseConfig(options).problems);
  return {
    dir,
    state,
    records,
    userConfig,
    ...(problem ? { settingsProblem: problem } : {}),
    ...(otlp ? { otlp } : {}),
    ...(clickhouse ? { clickhouse } : {}),
  };
}

/** No session to show: where the plugin keeps them, only the folders that exist (a session's first prompt writes one). */
function noSessionYet(env: CliIo["env"]): string {
  const existing = dataDirs(env).filter((d) => existsSync(d));
  const where = existing.length > 0 ? ` in ${existing.map((d) => join(d, "sessions")).join(" or ")}` : "";
  return `no session has reached the plugin yet${where}: a session's first prompt writes one (type one, or /utility status inside Claude Code).`;
}

/** The session `--session` names, else the latest one; one that no data folder holds is a usage error. */
function sessionToShow(given: string | undefined, env: CliIo["env"]): string {
  const folders = () =>
    dataDirs(env)
      .map((d) => join(d, "sessions"))
      .join(" or ");
  if (given === undefined) {
    const latest = latestSession(env);
    if (!latest) throw new UsageError(noSessionYet(env));
    return latest.sessionId;
  }
  if (given === "") throw new UsageError(`the session ID is empty. Usage: utility status ${ARGS}`);
  let dir: string | undefined;
  try {
    dir = locateSessionData(env, given);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!dir) throw new UsageError(`no session ${given} in ${folders()}.`);
  return given;
}

/** SESSION as log and report take it, or `--session`; both only when they agree. */
function givenSession({ values, positionals }: Parsed): string | undefined {
  const flag = stringOption(values.session);
  const positional = positionals[0];
  if (flag !== undefined && positional !== undefined && flag !== positional)
    throw new UsageError(`two sessions given: ${positional} and --session ${flag}; give one.`);
  return positional ?? flag;
}

function runStatus(parsed: Parsed, io: CliIo): number {
  const { values } = parsed;
  const sessionId = sessionToShow(givenSession(parsed), io.env);
  let view: SessionView | undefined;
  try {
    view = loadSession(io.env, sessionId);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.json) {
    const spend = view?.state ? sessionSpend(view.state) : zeroSpend();
    const costUsd = estimateCostUsd(spend.byModel, withOverride(DEFAULT_PRICES, view?.userConfig?.prices));
    printJson(io, {
      spend: spendJson({ tokens: spend.tokens, costUsd }),
      session: sessionId,
      dataDir: view?.dir ?? null,
      state: view?.state ?? null,
    });
  } else io.stdout(renderStatus(sessionId, view));
  return 0;
}

export const STATUS: CommandSpec = {
  name: "status",
  summary: "a session's scopes: task, step, budget, gating, last report",
  usage: ARGS,
  arguments: ["[session]", "a session id (default: the latest session)"],
  options: [
    ["--session <id>", "the same, as a flag"],
    ["--json", "print JSON"],
  ],
  run: runStatus,
};
