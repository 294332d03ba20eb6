// The file layer of replay: which files to read (a session file brings the
// subagent files beside it), reading them, and putting the findings together.
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { eventsForward } from "../transcript/forward-reader.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import { openFileSource, type ByteSource } from "../transcript/source.js";
import { DEFAULT_PRICES, estimateCostUsd } from "../engine/prices.js";
import { sumSpend, totalTokens, type Spend } from "../engine/spend.js";
import { gateSourceFrom } from "../engine/gate-policy.js";
import { readOptIn } from "../optin/read.js";
import type { GateSource } from "../engine/session/state.js";
import type { UserSettings } from "../engine/session/decide.js";
import type { ReplayOptions, ReplaySpend, ScopeReplay } from "./types.js";
import type { SubagentDefinitions } from "./agent-definitions.js";
import { REPLAY_POLICY, replaySession, type SessionInput } from "./core.js";
import { nodeSha256Hex } from "../hash/node-sha256.js";
import { TOKEN_ESTIMATE, type FileReplay, type ReplayReport, type ReplayTotals } from "./types.js";
import { fileErrorText } from "../state/file-error.js";

/** A file that cannot be replayed: the CLI turns it into one line and exit 2. */
export class ReplayInputError extends Error {
  override readonly name = "ReplayInputError";
}

const SUBAGENT_FILE = /(?:^|[\\/])subagents[\\/](?:workflows[\\/][^\\/]+[\\/])?agent-([^\\/]+)\.jsonl$/;

/** The agent id of a subagent transcript path (`…/<session>/subagents/agent-<id>.jsonl`), or undefined. */
export function subagentIdOf(path: string): string | undefined {
  return SUBAGENT_FILE.exec(path)?.[1];
}

/**
 * Subagent files Claude Code writes beside a session file, sorted:
 * `<dir>/<session_id>/subagents/agent-*.jsonl`, and those a Workflow's agents
 * write under `subagents/workflows/<run id>/` (docs/claude-code-facts.md).
 */
export function subagentFilesOf(sessionFile: string): string[] {
  const folder = join(dirname(sessionFile), basename(sessionFile).replace(/\.jsonl$/, ""), "subagents");
  const runs = listNames(join(folder, "workflows")).map((run) => join(folder, "workflows", run));
  return [folder, ...runs.sort()].flatMap((dir) =>
    listNames(dir)
      .filter((name) => /^agent-.+\.jsonl$/.test(name))
      .sort()
      .map((name) => join(dir, name)),
  );
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

interface Planned {
  path: string;
  role: "session" | "subagent";
  subagentOf?: string;
}

/** The files to read, in order: each given file, a session file followed by its subagent files; each once. */
export function planFiles(paths: readonly string[], cwd: string): Planned[] {
  const planned: Planned[] = [];
  const seen = new Set<string>();
  const add = (item: Planned) => {
    if (seen.has(item.path)) return;
    seen.add(item.path);
    planned.push(item);
  };
  for (const given of paths) {
    const path = resolve(cwd, given);
    let isFile = false;
    try {
      isFile = statSync(path).isFile();
    } catch (error) {
      throw new ReplayInputError(`cannot read ${given}: ${fileErrorText(error)}.`);
    }
    if (!isFile) throw new ReplayInputError(`${given} is not a file (give a transcript .jsonl).`);
    if (subagentIdOf(path) !== undefined) {
      add({ path, role: "subagent" });
      continue;
    }
    add({ path, role: "session" });
    for (const sub of subagentFilesOf(path)) add({ path: sub, role: "subagent", subagentOf: path });
  }
  return planned;
}

/** A skill's opt-in from its file, as the hooks read it; a skill file that is gone (or unreadable) gates nothing offline. */
export function skillSource(file: string): GateSource | undefined {
  try {
    return gateSourceFrom(file, readOptIn(file));
  } catch {
    return undefined;
  }
}

/** The planned files as sessions: a session file with the subagent files beside it, or a subagent file on its own. */
function sessionsOf(planned: readonly Planned[]): Planned[][] {
  const groups: Planned[][] = [];
  for (const item of planned) {
    const group = item.subagentOf !== undefined ? groups.find((g) => g[0]!.path === item.subagentOf) : undefined;
    if (group) group.push(item);
    else groups.push([item]);
  }
  return groups;
}

/** Replays transcript files (and the subagent files beside each session file), each session through one session machine. */
export function replayFiles(
  paths: readonly string[],
  options: { gated?: boolean; cwd?: string; user?: UserSettings | undefined; agents?: SubagentDefinitions } = {},
): ReplayReport {
  if (paths.length === 0) throw new ReplayInputError("give at least one transcript file.");
  const planned = planFiles(paths, options.cwd ?? process.cwd());
  const files: FileReplay[] = [];
  const replayOptions: ReplayOptions = {
    gated: options.gated === true,
    skillSource,
    sha256: nodeSha256Hex,
    ...(options.user ? { user: options.user } : {}),
  };
  for (const group of sessionsOf(planned)) files.push(...replayGroup(group, replayOptions, options.agents));
  const { scope: _all, ...spend } = totalSpend(files.flatMap((file) => file.scopes));
  return {
    version: 1,
    policy: REPLAY_POLICY,
    gated: options.gated === true,
    tokenEstimate: TOKEN_ESTIMATE,
    files,
    totals: { ...totalsOf(files), spend, pricesDate: DEFAULT_PRICES.date },
  };
}

/** One session's files through one machine, reported file by file (each scope under the file its lines came from). */
function replayGroup(group: readonly Planned[], options: ReplayOptions, agents?: SubagentDefinitions): FileReplay[] {
  const inputs = sessionInputs(
    group.map((item) => ({ path: item.path, subagent: item.role === "subagent" })),
    undefined,
    agents,
  );
  const replayed = replaySession(inputs, options);
  return group.map((item, index) => {
    const scopes = replayed.scopes.filter((scope) => (replayed.scopeFiles.get(scope.id) ?? 0) === index);
    return {
      path: item.path,
      role: item.role,
      ...(item.subagentOf ? { subagentOf: item.subagentOf } : {}),
      lines: replayed.fileLines[index] ?? 0,
      calls: scopes.reduce((sum, scope) => sum + scope.calls, 0),
      scopes,
      spend: scopes.flatMap((scope) => (scope.spend ? [replaySpend(spendLabel(scope), scope.spend, scope.messages ?? 0)] : [])),
    };
  });
}

/** Bytes read from transcript files, as reading goes (for a progress line). */
export interface ReadCounter {
  bytes: number;
  /** Called now and then while reading, after `bytes` grew. */
  tick?(): void;
}

/** How many events are read between two updates of a ReadCounter. */
const EVENTS_PER_TICK = 512;

/**
 * A file's events as they are read, one line at a time (never the whole
 * file); the file is closed when the caller stops or the end is reached.
 * A file that cannot be opened is a ReplayInputError.
 */
export function* fileEvents(path: string, counter?: ReadCounter): Generator<LocatedEvent> {
  let source: ByteSource;
  try {
    source = openFileSource(path);
  } catch (error) {
    throw new ReplayInputError(`cannot read ${path}: ${fileErrorText(error)}.`);
  }
  let counted = 0;
  let events = 0;
  const count = () => {
    if (!counter) return;
    counter.bytes += source.bytesRead - counted;
    counted = source.bytesRead;
    counter.tick?.();
  };
  try {
    for (const event of eventsForward(source)) {
      if (++events % EVENTS_PER_TICK === 0) count();
      yield event;
    }
  } finally {
    count();
    source.close();
  }
}

/** A session's files as replay inputs: the session file first, each subagent file as that agent's own. */
export function sessionInputs(
  files: ReadonlyArray<{ path: string; subagent: boolean }>,
  counter?: ReadCounter,
  agents?: SubagentDefinitions,
): SessionInput[] {
  return files.map(({ path, subagent }) => {
    const agentId = subagentIdOf(path);
    const subagentFile = { ...(agentId !== undefined ? { agentId } : {}), ...agents?.get(path) };
    return { events: fileEvents(path, counter), ...(subagent ? { subagentFile } : {}) };
  });
}

/** How a file's spend names a scope: `main`, `agent:<id>`, or `sidechain` for 1.0 inline subagents (no agent id). */
function spendLabel(scope: ScopeReplay): string {
  if (scope.scope === "main") return "main";
  return scope.agentId !== undefined ? `agent:${scope.agentId}` : "sidechain";
}

/** Every scope's spend together (the reducer's, added with its own event); a subagent's copies in the session file are left out, counted from its own file. */
function totalSpend(scopes: readonly ScopeReplay[]): ReplaySpend {
  const total = sumSpend(scopes.flatMap((scope) => (scope.spend ? [scope.spend] : [])));
  return replaySpend(
    "all",
    total,
    scopes.reduce((sum, scope) => sum + (scope.messages ?? 0), 0),
  );
}

function replaySpend(scope: string, spend: Spend, messages: number): ReplaySpend {
  return {
    scope,
    messages,
    tokens: spend.tokens,
    byModel: spend.byModel,
    total: totalTokens(spend.tokens),
    costUsd: estimateCostUsd(spend.byModel, DEFAULT_PRICES),
  };
}

function totalsOf(files: readonly FileReplay[]): Omit<ReplayTotals, "spend" | "pricesDate"> {
  const counted = files.flatMap((file) => file.scopes);
  const gated = counted.some((scope) => scope.gate !== undefined);
  const totals: Omit<ReplayTotals, "spend" | "pricesDate"> = {
    files: files.length,
    scopes: counted.length,
    calls: counted.reduce((sum, scope) => sum + scope.calls, 0),
    repeats: counted.reduce((sum, scope) => sum + scope.repeats.length, 0),
    repeatTokens: counted.reduce((sum, scope) => sum + scope.repeatTokens, 0),
    identicalOutcomes: counted.reduce((sum, scope) => sum + scope.identicalOutcomes.length, 0),
    stuckLoops: counted.reduce((sum, scope) => sum + scope.stuckLoops.length, 0),
  };
  if (gated) {
    totals.refused = counted.reduce((sum, scope) => sum + (scope.gate?.refused ?? 0), 0);
    totals.passed = counted.reduce((sum, scope) => sum + (scope.gate?.passed ?? 0), 0);
  }
  return totals;
}
