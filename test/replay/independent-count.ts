// An independent count of what `utility replay` reports per task, written from
// SPEC §2, §7 and §12 and the transcript format (docs/claude-code-facts.md),
// without any of src/: the tasks of a session (a typed prompt starts one), what
// each task's tree spent (its main-scope messages and those of every subagent
// that started in it, each message once at its largest counts), the calls that
// ran (neutral tools are no calls; a call refused by Claude Code never ran), the
// subagents it launched, and the exact repeats of every scope.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

type Json = Record<string, any>;

export interface CountedTask {
  session: string;
  task: number;
  tokens: number;
  /** input, output, cache writes, cache reads, summed over the tree. */
  counts: [number, number, number, number];
  calls: number;
  agents: number;
  repeats: number;
}

/** SPEC §6: tools that only plan or load capabilities; never steps. */
const NEUTRAL = new Set([
  "Skill",
  "TodoWrite",
  "TodoRead",
  "ToolSearch",
  "ExitPlanMode",
  "EnterPlanMode",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
]);
/** SPEC §7: polling and bookkeeping are never repeats. */
const POLLING = new Set(["BashOutput", "TaskOutput", "TodoWrite", "TaskList", "TaskGet", "TaskUpdate", "TaskCreate"]);
const READ_ONLY = new Set([
  "Read",
  "Grep",
  "Glob",
  "LS",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
]);
const WRITES: Record<string, string> = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
const LAUNCHERS = new Set(["Agent", "Task", "Workflow"]);
/** User text Claude Code writes that nobody typed (it carries no field saying so). */
const MARKERS = [
  "[Request interrupted by user",
  "<local-command-stdout>",
  "<local-command-stderr>",
  "<local-command-caveat>",
  "<bash-stdout>",
  "<bash-stderr>",
];

function lines(file: string): Json[] {
  const out: Json[] = [];
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    try {
      const json = JSON.parse(text) as unknown;
      if (json !== null && typeof json === "object") out.push(json as Json);
    } catch {
      // cut short: skipped, as Claude Code's readers skip it
    }
  }
  return out;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  if (content.some((b: Json) => b?.type === "tool_result")) return undefined;
  const texts = content.filter((b: Json) => b?.type === "text" && typeof b.text === "string").map((b: Json) => b.text as string);
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/** SPEC §2: a prompt the user typed (no field marks it as Claude Code's own). */
function isTyped(line: Json): boolean {
  if (line.type !== "user" || line.isSidechain === true || line.isMeta === true || line.isCompactSummary === true) return false;
  if (line.origin?.kind !== undefined && line.origin.kind !== "human") return false;
  if (line.promptSource === "system" || line.wakeupSource || line.turnOrigin === "task_notification" || line.turnOrigin === "scheduled")
    return false;
  const text = textOf(line.message?.content);
  return text !== undefined && !MARKERS.some((m) => text.trimStart().startsWith(m));
}

/** One scope's lines in order: its own file's, or its copies (agent_progress, 1.0 sidechains) in the session file. */
interface Scope {
  key: string;
  lines: Json[];
  /** The main task it counts toward (subagents: the one current when it started). */
  task: number;
}

/** Usage per message id, each count at its largest over the message's lines. */
function messageUsage(scopeLines: readonly Json[], into: Map<string, number[]>): void {
  for (const line of scopeLines) {
    const message = line.message;
    if (line.type !== "assistant" || !Array.isArray(message?.content) || typeof message.usage !== "object" || message.usage === null)
      continue;
    const u = message.usage;
    const counts = [u.input_tokens, u.output_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens].map((v) =>
      Number.isSafeInteger(v) && v >= 0 ? (v as number) : 0,
    );
    const id = typeof message.id === "string" ? message.id : `line:${line.uuid}`;
    const seen = into.get(id) ?? [0, 0, 0, 0];
    into.set(
      id,
      seen.map((v, i) => Math.max(v, counts[i]!)),
    );
  }
}

interface Call {
  id: string;
  name: string;
  key: string;
  input: Json;
}

/** Keys sorted: two inputs that differ only in key order are the same input. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Json)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

function resultText(block: Json): string {
  if (typeof block.content === "string") return block.content;
  if (Array.isArray(block.content))
    return block.content
      .filter((b: Json) => b?.type === "text")
      .map((b: Json) => b.text)
      .join("\n");
  return "";
}

interface ScopeCount {
  /** Calls that ran, by the task they count toward (a main-scope call: the task it was made in). */
  calls: Map<number, number>;
  launches: Map<number, number>;
  repeats: Map<number, number>;
}

/** What a call that ran may do to later results (SPEC §7). */
type Effect = "read" | "write" | "exec" | "poll" | "neutral";

interface Ran {
  call: Call;
  effect: Effect;
  failed: boolean;
  /** A background shell or agent still running: it may change anything, any time. */
  running: boolean;
  job?: string;
}

function effectOf(call: Call): Effect {
  if (POLLING.has(call.name)) return "poll";
  if (NEUTRAL.has(call.name)) return "neutral";
  if (READ_ONLY.has(call.name)) return "read";
  if (WRITES[call.name] !== undefined) return "write";
  return "exec";
}

const pathsOf = (input: Json, keys: readonly string[]) =>
  keys.map((k) => input[k]).filter((v): v is string => typeof v === "string" && v !== "");
const within = (path: string, folder: string) => path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);

/** Could `between` have changed what `call` returns? A shell or agent could change anything; a write, what reads its file. */
function couldChange(between: Ran, call: Call): boolean {
  if (between.effect === "exec") return true;
  if (between.effect !== "write") return false;
  if (effectOf(call) !== "read") return true;
  const read = pathsOf(call.input, ["file_path", "path", "notebook_path"]);
  const written = pathsOf(between.call.input, [WRITES[between.call.name]!]);
  if (read.length === 0 || written.length === 0) return true;
  return written.some((w) => read.some((r) => !w.startsWith("/") || !r.startsWith("/") || within(w, r)));
}

/**
 * SPEC §7 over one scope, in its own order: a call is an exact repeat when an
 * identical call ran before it since the last compaction and did not fail,
 * nothing that ran after that one could have changed its result, and no
 * background job is still running from before it. A failed call is never the
 * original; what it may have changed still counts. A job's end (its
 * notification with a status) makes it a call that ran up to its end.
 */
function countScope(scope: Scope, taskOfLine: (index: number) => number): ScopeCount {
  const count: ScopeCount = { calls: new Map(), launches: new Map(), repeats: new Map() };
  const add = (map: Map<number, number>, task: number) => map.set(task, (map.get(task) ?? 0) + 1);
  const calls = new Map<string, Call & { task: number }>();
  const answered = new Set<string>();
  let ran: Ran[] = [];
  const isRepeat = (call: Call): boolean => {
    const effect = effectOf(call);
    if (effect === "poll" || effect === "neutral") return false;
    for (let i = ran.length - 1; i >= 0; i--) {
      const e = ran[i]!;
      if (!e.failed && e.call.name === call.name && e.call.key === call.key) return !ran.slice(0, i).some((b) => b.running);
      if (couldChange(e, call)) return false;
    }
    return false;
  };
  scope.lines.forEach((line, index) => {
    const task = taskOfLine(index);
    if ((line.type === "system" && line.subtype === "compact_boundary") || (line.type === "user" && line.isCompactSummary === true))
      ran = [];
    const content = line.message?.content;
    if (line.type === "assistant" && Array.isArray(content)) {
      for (const block of content as Json[]) {
        if (block?.type !== "tool_use" || typeof block.id !== "string" || calls.has(block.id)) continue;
        const input = (block.input ?? {}) as Json;
        const call = { id: block.id, name: String(block.name), key: canonical(input), input, task };
        calls.set(block.id, call);
        if (isRepeat(call)) add(count.repeats, task);
        if (LAUNCHERS.has(call.name)) add(count.launches, task);
      }
    }
    if (line.type === "user" && Array.isArray(content)) {
      for (const block of content as Json[]) {
        if (block?.type !== "tool_result") continue;
        const call = calls.get(block.tool_use_id);
        if (!call || answered.has(call.id)) continue;
        answered.add(call.id);
        const text = resultText(block);
        const refused = (typeof line.toolDenialKind === "string" && block.is_error === true) || /^PreToolUse:\S+ hook error: /.test(text);
        if (refused) continue;
        if (!NEUTRAL.has(call.name)) add(count.calls, call.task);
        const background = call.name === "Agent" ? call.input.run_in_background !== false : call.input.run_in_background === true;
        const job =
          /Command running in background with ID: ([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? /\bagentId: ([A-Za-z0-9_-]+)/.exec(text)?.[1];
        ran.push({
          call,
          effect: effectOf(call),
          failed: block.is_error === true,
          running: background,
          ...(job !== undefined ? { job } : {}),
        });
      }
    }
    // A task-notification with a finished status ends its job, named by its tool-use id or task id.
    const note = textOf(content);
    if (
      note !== undefined &&
      line.origin?.kind === "task-notification" &&
      /<status>\s*(completed|failed|killed|stopped)\s*<\/status>/.test(note)
    ) {
      const toolUseId = /<tool-use-id>([^<]+)<\/tool-use-id>/.exec(note)?.[1]?.trim();
      const taskId = /<task-id>([^<]+)<\/task-id>/.exec(note)?.[1]?.trim();
      const launch = ran.find((e) => e.running && (e.call.id === toolUseId || (e.job !== undefined && e.job === taskId)));
      if (launch) {
        launch.running = false;
        ran.push({ call: { id: "(end)", name: "(end)", key: "", input: {} }, effect: "exec", failed: false, running: false });
      }
    }
  });
  return count;
}

/** A session file and the subagent files beside it, counted per task. */
export function countSession(sessionFile: string): CountedTask[] {
  const session = basename(sessionFile, ".jsonl");
  const folder = join(sessionFile.slice(0, -".jsonl".length), "subagents");
  const ownFiles = [folder, ...listDirs(join(folder, "workflows"))].flatMap((dir) =>
    listFiles(dir)
      .filter((n) => /^agent-.+\.jsonl$/.test(n))
      .map((n) => join(dir, n)),
  );
  const ownIds = new Set(ownFiles.map((f) => basename(f, ".jsonl").slice("agent-".length)));
  const main: Json[] = [];
  const inline = new Map<string, Json[]>();
  const inlineStart = new Map<string, number>();
  let task = 0;
  let sidechainRun = 0;
  let inSidechain = false;
  const taskTimes: Array<{ task: number; at: number }> = [];
  const mainTask: number[] = [];
  let latest = Number.NEGATIVE_INFINITY;
  for (const raw of lines(sessionFile)) {
    const nested =
      raw.type === "progress" && raw.data?.type === "agent_progress"
        ? { ...raw.data.message, isSidechain: true, agentId: raw.data.agentId }
        : undefined;
    const line: Json = nested ?? raw;
    const time = Date.parse(line.timestamp ?? "");
    if (Number.isFinite(time) && time > latest) latest = time;
    if (line.isSidechain === true) {
      if (typeof line.agentId === "string" && ownIds.has(line.agentId)) continue;
      // 1.0 wrote no agent id: a subagent's lines are one run, each begins with its prompt.
      let key = typeof line.agentId === "string" ? `agent:${line.agentId}` : undefined;
      if (key === undefined) {
        if (
          !inSidechain ||
          (line.type === "user" && textOf(line.message?.content) !== undefined && (inline.get(`side:${sidechainRun}`)?.length ?? 0) > 0)
        )
          sidechainRun += 1;
        key = `side:${sidechainRun}`;
      }
      inSidechain = true;
      if (!inline.has(key)) {
        inline.set(key, []);
        inlineStart.set(key, Math.max(task, 1));
      }
      inline.get(key)!.push(line);
      continue;
    }
    inSidechain = false;
    if (!["user", "assistant", "system"].includes(line.type)) continue;
    if (isTyped(line)) {
      task += 1;
      taskTimes.push({ task, at: latest });
    } else if (task === 0 && line.type === "assistant") {
      task = 1;
      taskTimes.push({ task, at: latest });
    }
    main.push(line);
    mainTask.push(task);
  }
  const scopes: Scope[] = [{ key: "main", lines: main, task: 0 }];
  for (const [key, scopeLines] of inline) scopes.push({ key, lines: scopeLines, task: inlineStart.get(key)! });
  for (const file of ownFiles) {
    const own = lines(file);
    const first = own.map((l) => Date.parse(l.timestamp ?? "")).find(Number.isFinite) ?? Number.NEGATIVE_INFINITY;
    // Merged by time, ties to the session file: it counts toward the last task started at or before its first line.
    const started = taskTimes.filter((t) => t.at <= first).at(-1)?.task ?? 1;
    scopes.push({ key: basename(file), lines: own, task: started });
  }
  const tasks = new Map<number, CountedTask>();
  const row = (n: number) => {
    let t = tasks.get(n);
    if (!t) tasks.set(n, (t = { session, task: n, tokens: 0, counts: [0, 0, 0, 0], calls: 0, agents: 0, repeats: 0 }));
    return t;
  };
  const started = new Map<number, number>();
  for (const scope of scopes) {
    const isMain = scope.key === "main";
    const taskOfLine = (i: number) => (isMain ? mainTask[i]! : scope.task);
    if (!isMain) started.set(scope.task, (started.get(scope.task) ?? 0) + 1);
    // Usage per task: the main scope's messages by the task of their line; a subagent's all toward its task.
    const byTask = new Map<number, Json[]>();
    scope.lines.forEach((l, i) => byTask.set(taskOfLine(i), [...(byTask.get(taskOfLine(i)) ?? []), l]));
    for (const [n, taskLines] of byTask) {
      const usage = new Map<string, number[]>();
      messageUsage(taskLines, usage);
      const t = row(n);
      for (const counts of usage.values())
        counts.forEach((v, i) => {
          t.counts[i as 0 | 1 | 2 | 3] += v;
          t.tokens += v;
        });
    }
    const counted = countScope(scope, taskOfLine);
    for (const [n, c] of counted.calls) row(n).calls += c;
    for (const [n, c] of counted.repeats) row(n).repeats += c;
    for (const [n, c] of counted.launches) row(n).agents += c;
  }
  for (const [n, count] of started) row(n).agents = Math.max(row(n).agents, count);
  return [...tasks.values()].filter((t) => t.task > 0 || t.tokens > 0).sort((a, b) => a.task - b.task);
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function listDirs(dir: string): string[] {
  return listFiles(dir).map((n) => join(dir, n));
}

/** Every session file of a projects folder (or of one project folder). */
export function sessionFilesUnder(folder: string): string[] {
  const here = listFiles(folder).filter((n) => n.endsWith(".jsonl"));
  if (here.length > 0) return here.map((n) => join(folder, n));
  return listDirs(folder).flatMap((dir) =>
    listFiles(dir)
      .filter((n) => n.endsWith(".jsonl"))
      .map((n) => join(dir, n)),
  );
}
