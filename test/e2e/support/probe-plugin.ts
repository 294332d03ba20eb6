/**
 * A throwaway Claude Code plugin for end-to-end tests and probes.
 *
 * `makeProbePlugin()` writes a plugin into a fresh temp folder. Its hooks (exec
 * form: `node <root>/probe-hook.mjs <Event>`) record each hook call (stdin, the
 * CLAUDE_* environment, timings, optionally a copy of the transcript) as one
 * JSON file in `dumpDir`, and answer according to `rules`, so a test can make
 * a hook deny a call, add context, block a stop, sleep, or fail.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PROBE_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
] as const;
export type ProbeEvent = (typeof PROBE_EVENTS)[number];

export interface ProbeRule {
  event: ProbeEvent;
  /** exact tool name (PreToolUse / PostToolUse) */
  tool?: string;
  /** substring the JSON of tool_input (or the prompt, for UserPromptSubmit) must contain */
  match?: string;
  /** only in a subagent (true) / only in the main conversation (false) */
  subagent?: boolean;
  /** apply only the first time it matches (per plugin instance) */
  once?: boolean;
  /** JSON printed to stdout */
  output?: unknown;
  /** raw stdout (instead of `output`) */
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  /** sleep before answering */
  sleepMs?: number;
}

export interface ProbePluginOptions {
  /** plugin name (default "probe") */
  name?: string;
  rules?: ProbeRule[];
  /** events to register hooks for (default: all PROBE_EVENTS) */
  events?: readonly ProbeEvent[];
  /** copy the transcript (and subagent transcripts) into the dump at these events */
  snapshotTranscriptAt?: ProbeEvent[];
  /**
   * PreToolUse: poll the transcript (every 5 ms, up to this many ms) until the
   * tool_use being decided appears in it; records waitedMs / foundToolUse /
   * transcriptAfterWait. Claude Code flushes its transcript on a 100 ms timer.
   */
  waitForToolUseMs?: number;
  /** skills/<name>/SKILL.md files: name → full file text */
  skills?: Record<string, string>;
  /** commands/<name>.md files: name → full file text */
  commands?: Record<string, string>;
  /** agents/<name>.md files: name → full file text */
  agents?: Record<string, string>;
  /** extra files, path relative to the plugin root → contents */
  files?: Record<string, string>;
  /** parent folder (default: a fresh temp folder) */
  parent?: string;
}

export interface HookCall {
  event: ProbeEvent;
  /** parsed stdin */
  input: Record<string, any>;
  /** CLAUDE_* and a few other variables the hook process saw */
  env: Record<string, string>;
  argv: string[];
  cwd: string;
  pid: number;
  /** epoch ms when the hook started / finished */
  start: number;
  end: number;
  /** transcript text at hook time, when snapshotting */
  transcript?: string;
  /** other *.jsonl files under the session's folder (subagent transcripts), path → text */
  extraTranscripts?: Record<string, string>;
  /** with waitForToolUseMs: how long the hook waited, whether the tool_use appeared, the transcript then */
  waitedMs?: number;
  foundToolUse?: boolean;
  transcriptAfterWait?: string;
  /** the transcript file waited on (the subagent's own for a subagent call) */
  waitedOn?: string;
  /** index of the rule applied, if any */
  rule?: number;
}

export interface ProbePlugin {
  root: string;
  name: string;
  dumpDir: string;
  /** every hook call recorded so far, sorted by start time */
  calls(): HookCall[];
  callsOf(event: ProbeEvent): HookCall[];
  /** remove the plugin and its dumps (the temp parent folder, when this created it) */
  cleanup(): void;
}

const HOOK_SCRIPT = String.raw`
import { readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync, statSync, openSync, closeSync } from "node:fs";
import { join, dirname, basename } from "node:path";
const start = Date.now();
const root = dirname(new URL(import.meta.url).pathname);
const event = process.argv[2];
const cfg = JSON.parse(readFileSync(join(root, "probe-config.json"), "utf8"));
let raw = "";
for await (const c of process.stdin) raw += c;
let input;
try { input = JSON.parse(raw); } catch { input = { __unparsed: raw }; }
const env = {};
for (const [k, v] of Object.entries(process.env)) if (/^(CLAUDE|ANTHROPIC_BASE|PROBE)/.test(k) || k === "HOME" || k === "PWD") env[k] = v;
const rec = { event, input, env, argv: process.argv.slice(2), cwd: process.cwd(), pid: process.pid, start };
if (cfg.snapshotTranscriptAt.includes(event) && typeof input.transcript_path === "string") {
  try { rec.transcript = readFileSync(input.transcript_path, "utf8"); } catch (e) { rec.transcript = "<unreadable: " + e.message + ">"; }
  const sdir = join(dirname(input.transcript_path), String(input.session_id));
  const extra = {};
  const walk = (d) => { let es = []; try { es = readdirSync(d); } catch { return; } for (const n of es) { const p = join(d, n); try { if (statSync(p).isDirectory()) walk(p); else if (n.endsWith(".jsonl")) extra[p] = readFileSync(p, "utf8"); } catch {} } };
  walk(sdir);
  rec.extraTranscripts = extra;
}
if (cfg.waitForToolUseMs > 0 && event === "PreToolUse" && typeof input.transcript_path === "string") {
  // Poll until the tool_use being decided shows up in the transcript.
  const t0 = Date.now();
  let found = false;
  // A subagent's calls land in its own transcript, beside the main one.
  const tpath = typeof input.agent_id === "string"
    ? join(dirname(input.transcript_path), String(input.session_id), "subagents", "agent-" + input.agent_id + ".jsonl")
    : input.transcript_path;
  rec.waitedOn = tpath;
  while (Date.now() - t0 < cfg.waitForToolUseMs) {
    let t = "";
    try { t = readFileSync(tpath, "utf8"); } catch {}
    if (t.includes(JSON.stringify(String(input.tool_use_id)))) { found = true; rec.transcriptAfterWait = t; break; }
    await new Promise((r) => setTimeout(r, 5));
  }
  rec.waitedMs = Date.now() - t0;
  rec.foundToolUse = found;
}
const hay = event === "UserPromptSubmit" ? String(input.prompt ?? "") : JSON.stringify(input.tool_input ?? input);
let ruleIdx;
for (let i = 0; i < cfg.rules.length; i++) {
  const r = cfg.rules[i];
  if (r.event !== event) continue;
  if (r.tool !== undefined && r.tool !== input.tool_name) continue;
  if (r.match !== undefined && !hay.includes(r.match)) continue;
  if (r.subagent !== undefined && r.subagent !== (typeof input.agent_id === "string")) continue;
  if (r.once) {
    const flag = join(cfg.dumpDir, "once-" + i);
    try { closeSync(openSync(flag, "wx")); } catch { continue; }
  }
  ruleIdx = i;
  break;
}
const rule = ruleIdx === undefined ? undefined : cfg.rules[ruleIdx];
if (rule?.sleepMs) await new Promise((r) => setTimeout(r, rule.sleepMs));
rec.rule = ruleIdx;
rec.end = Date.now();
mkdirSync(cfg.dumpDir, { recursive: true });
writeFileSync(join(cfg.dumpDir, start + "-" + event + "-" + process.pid + ".json"), JSON.stringify(rec));
if (rule) {
  if (rule.stdout !== undefined) process.stdout.write(rule.stdout);
  else if (rule.output !== undefined) process.stdout.write(JSON.stringify(rule.output));
  if (rule.stderr) process.stderr.write(rule.stderr);
  process.exitCode = rule.exitCode ?? 0;
}
`;

export function makeProbePlugin(opts: ProbePluginOptions = {}): ProbePlugin {
  const name = opts.name ?? "probe";
  const parent = opts.parent ?? mkdtempSync(join(tmpdir(), "cc-probe-plugin-"));
  const root = join(parent, name);
  const dumpDir = join(parent, `${name}-dump`);
  mkdirSync(join(root, ".claude-plugin"), { recursive: true });
  mkdirSync(join(root, "hooks"), { recursive: true });
  mkdirSync(dumpDir, { recursive: true });
  writeFileSync(
    join(root, ".claude-plugin", "plugin.json"),
    JSON.stringify(
      {
        name,
        version: "0.0.1",
        description: "Throwaway probe plugin for end-to-end tests.",
        author: { name: "utility tests" },
        license: "MIT",
      },
      null,
      2,
    ),
  );
  const events = opts.events ?? PROBE_EVENTS;
  const hooks: Record<string, unknown[]> = {};
  for (const ev of events) {
    const h = { type: "command", command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/probe-hook.mjs", ev], timeout: 30 };
    hooks[ev] = ev === "PreToolUse" || ev === "PostToolUse" ? [{ matcher: "*", hooks: [h] }] : [{ hooks: [h] }];
  }
  writeFileSync(join(root, "hooks", "hooks.json"), JSON.stringify({ hooks }, null, 2));
  writeFileSync(join(root, "probe-hook.mjs"), HOOK_SCRIPT);
  writeFileSync(
    join(root, "probe-config.json"),
    JSON.stringify(
      {
        rules: opts.rules ?? [],
        snapshotTranscriptAt: opts.snapshotTranscriptAt ?? [],
        waitForToolUseMs: opts.waitForToolUseMs ?? 0,
        dumpDir,
      },
      null,
      2,
    ),
  );
  for (const [skill, body] of Object.entries(opts.skills ?? {})) {
    mkdirSync(join(root, "skills", skill), { recursive: true });
    writeFileSync(join(root, "skills", skill, "SKILL.md"), body);
  }
  for (const [cmd, body] of Object.entries(opts.commands ?? {})) {
    mkdirSync(join(root, "commands"), { recursive: true });
    writeFileSync(join(root, "commands", `${cmd}.md`), body);
  }
  for (const [agent, body] of Object.entries(opts.agents ?? {})) {
    mkdirSync(join(root, "agents"), { recursive: true });
    writeFileSync(join(root, "agents", `${agent}.md`), body);
  }
  for (const [rel, body] of Object.entries(opts.files ?? {})) {
    const p = join(root, rel);
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, body);
  }
  const calls = (): HookCall[] => {
    let names: string[] = [];
    try {
      names = readdirSync(dumpDir).filter((n) => n.endsWith(".json"));
    } catch {
      return [];
    }
    const out: HookCall[] = [];
    for (const n of names) {
      try {
        out.push(JSON.parse(readFileSync(join(dumpDir, n), "utf8")) as HookCall);
      } catch {
        // a file being written: skip
      }
    }
    return out.sort((a, b) => a.start - b.start || a.pid - b.pid);
  };
  return {
    root,
    name,
    dumpDir,
    calls,
    callsOf: (event) => calls().filter((c) => c.event === event),
    cleanup: () => {
      rmSync(opts.parent ? root : parent, { recursive: true, force: true });
      rmSync(dumpDir, { recursive: true, force: true });
    },
  };
}

/** Hook output that denies a PreToolUse call with a reason. */
export function denyOutput(reason: string): unknown {
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
}

/** Hook output that adds context (PreToolUse / PostToolUse / UserPromptSubmit ...). */
export function additionalContextOutput(event: ProbeEvent, context: string): unknown {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: context } };
}
