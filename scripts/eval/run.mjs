#!/usr/bin/env node
// The guidance evaluation harness (issue 15, issue 20): runs a reader's text
// for one situation through the real, built hooks as Claude Code runs them
// (one hook server per situation, dist/server.js, scripts/hook-server.mjs:
// UserPromptSubmit, SubagentStart, PreToolUse, Stop), in a temporary
// transcript shaped as Claude Code 2.1.328 writes it. No PostToolUse: the
// plugin has none; the hooks learn results from the transcript's lines.
//
//   node scripts/eval/run.mjs SITUATION.json TEXT [RETRY]   run a reader's text (and its retry after a refusal)
//   node scripts/eval/run.mjs --prompt SITUATION.json       print the prompt a reader gets for it
//   node scripts/eval/run.mjs --all TEXTS_DIR               run TEXTS_DIR/<id>.txt (and <id>.retry.txt) for every situation
//   node scripts/eval/run.mjs --reader-prompt               print test/eval/READER-PROMPT.md (how to run a round, every prompt)
//   node scripts/eval/run.mjs --reader-copy DIR             copy into DIR the only Markdown files a reader may read
//
// A TEXT is what the reader wrote; if it holds a line `MESSAGE:`, only what
// follows it counts (what comes before, e.g. the FILES it read, is not the
// model's message). Prints one JSON object per situation.
import { startHookServer } from "../hook-server.mjs";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SITUATIONS_DIR = join(ROOT, "test", "eval", "situations");
/** The plugin as Claude Code loads it: its Markdown and its built hooks. */
export const PLUGIN = join(ROOT, "plugin");
/** The event each hook name of this harness runs. */
const EVENTS = {
  "pre-tool-use": "PreToolUse",
  "subagent-start": "SubagentStart",
  "user-prompt-submit": "UserPromptSubmit",
  stop: "Stop",
  "subagent-stop": "SubagentStop",
};
const SESSION = "e7a1c0de-0000-4000-8000-000000000015";
const AGENT_ID = "aeva1000000000015";

/** The Markdown a reader may open, in the order they are offered. */
export const GUIDANCE_FILES = [
  "plugin/skills/utility-scoring/SKILL.md",
  "plugin/skills/utility-scoring/modules/subagent.md",
  "plugin/skills/utility-scoring/modules/dispatch.md",
  "plugin/skills/utility-scoring/modules/step-cost.md",
  "plugin/skills/utility-scoring/modules/authoring.md",
];

// ---- transcript lines, as Claude Code writes them ----

let counter = 0;
function envelope(type, sidechain) {
  counter += 1;
  return {
    parentUuid: null,
    isSidechain: sidechain,
    userType: "external",
    sessionId: SESSION,
    version: "2.1.328",
    type,
    uuid: `eval-${counter}`,
    timestamp: "2026-12-01T09:00:00.000Z",
    ...(sidechain ? { agentId: AGENT_ID } : {}),
  };
}
const lines = {
  prompt: (text, sc) => ({ ...envelope("user", sc), message: { role: "user", content: text } }),
  meta: (text, sc) => ({ ...envelope("user", sc), isMeta: true, message: { role: "user", content: [{ type: "text", text }] } }),
  assistant: (id, block, model, sc) => ({
    ...envelope("assistant", sc),
    message: { id, model, type: "message", role: "assistant", content: [block] },
  }),
  result: (toolUseId, content, isError, sc) => ({
    ...envelope("user", sc),
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) }] },
  }),
};

/** The message a reader wrote: what follows `MESSAGE:`, or all of it. */
export function messageOf(readerText) {
  const at = readerText.search(/^MESSAGE:\s*$/m);
  return (at < 0 ? readerText : readerText.slice(at).replace(/^MESSAGE:\s*\n/, "")).trim();
}

/** The files a reader says it read (`FILES: a, b`), and their words (whitespace-separated, as wc -w counts). */
/**
 * A path as a reader names it, from the repository's root; rounds read from a
 * copy laid out as the plugin (`skills/…`, before the plugin moved to plugin/)
 * name the same files without the prefix.
 */
function resolveReaderPath(f) {
  const candidates = [join(ROOT, f), join(PLUGIN, f), join(ROOT, "examples", f)];
  return candidates.find((c) => existsSync(c)) ?? candidates[0];
}

export function filesRead(readerText) {
  const m = /^FILES:\s*(.*)$/m.exec(readerText.split(/^MESSAGE:\s*$/m)[0] ?? "");
  const files = m
    ? m[1]
        .split(",")
        .map((f) => f.trim().replace(/^`|`$/g, ""))
        .filter(Boolean)
    : [];
  const words = files.reduce((sum, f) => {
    const path = resolveReaderPath(f);
    return sum + (existsSync(path) ? readFileSync(path, "utf8").split(/\s+/).filter(Boolean).length : 0);
  }, 0);
  return { files, words };
}

/** A call the reader names instead of the situation's (`CALL: Read {"file_path": "x"}`, before MESSAGE:), or undefined. */
export function declaresNoCall(readerText) {
  const head = readerText.split(/^MESSAGE:\s*$/m)[0] ?? "";
  return /^CALL:\s*none\s*$/im.test(head);
}

/** Where the reader says it had to guess (`GUESSES: a | b`, before MESSAGE:); none for "none". */
export function guessesOf(readerText) {
  const head = readerText.split(/^MESSAGE:\s*$/m)[0] ?? "";
  const m = /^GUESSES:\s*(.*)$/m.exec(head);
  if (!m || /^none\.?$/i.test(m[1].trim())) return [];
  return m[1]
    .split("|")
    .map((g) => g.trim())
    .filter(Boolean);
}

export function callOf(readerText) {
  const head = readerText.split(/^MESSAGE:\s*$/m)[0] ?? "";
  const m = /^CALL:\s*([A-Za-z_][\w-]*)\s+(\{.*\})\s*$/m.exec(head);
  return m ? { tool: m[1], input: JSON.parse(m[2]) } : undefined;
}

export function loadSituation(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

export function allSituations() {
  return readdirSync(SITUATIONS_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => loadSituation(join(SITUATIONS_DIR, f)));
}

/** The skills every sandbox project holds (as `.claude/skills/<name>/`): the evaluation's own and the gated example. */
const SKILL_SOURCES = [join(ROOT, "test", "eval", "skills"), join(ROOT, "examples", "skills")];

/** A skill's name as the situation gives it (`eval:fix-bug` in older rounds is `fix-bug`). */
const skillName = (name) => name.replace(/^eval:/, "");

/** The repository folder of a situation's gating skill, if it has one. */
function skillFolder(gate) {
  if (!gate?.skill) return undefined;
  const name = skillName(gate.skill);
  return SKILL_SOURCES.map((dir) => join(dir, name)).find((dir) => existsSync(join(dir, "SKILL.md")));
}

/** One sandbox per run: its own transcript, data folder, home and project (with the situation's agent definition). */
class Sandbox {
  constructor(situation) {
    this.situation = situation;
    this.dir = mkdtempSync(join(tmpdir(), "utility-eval-"));
    this.project = join(this.dir, "project");
    this.home = join(this.dir, "home");
    this.data = join(this.dir, "data");
    for (const d of [this.project, this.home, this.data]) mkdirSync(d, { recursive: true });
    this.main = join(this.dir, "transcripts", `${SESSION}.jsonl`);
    this.sub = join(dirname(this.main), SESSION, "subagents", `agent-${AGENT_ID}.jsonl`);
    mkdirSync(dirname(this.sub), { recursive: true });
    writeFileSync(this.main, "");
    // Every skill a situation may activate or call is a project skill, where Claude Code (and the hooks) find it by name.
    for (const dir of SKILL_SOURCES)
      for (const name of readdirSync(dir))
        if (existsSync(join(dir, name, "SKILL.md")))
          cpSync(join(dir, name), join(this.project, ".claude", "skills", name), { recursive: true });
    if (situation.gate?.agent) {
      mkdirSync(join(this.project, ".claude", "agents"), { recursive: true });
      cpSync(
        join(ROOT, "test", "eval", "agents", `${situation.gate.agent}.md`),
        join(this.project, ".claude", "agents", `${situation.gate.agent}.md`),
      );
    }
    this.isSub = situation.scope === "subagent";
    this.file = this.isSub ? this.sub : this.main;
    this.calls = 0;
  }

  write(line, file = this.file) {
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }

  async rawHook(entry, fields) {
    const input = {
      session_id: SESSION,
      transcript_path: this.main,
      cwd: this.project,
      permission_mode: "default",
      ...(this.isSub ? { agent_id: AGENT_ID, agent_type: this.situation.gate?.agent ?? "general-purpose" } : {}),
      ...fields,
    };
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: this.home,
      UTILITY_DATA_DIR: this.data,
      CLAUDE_PROJECT_DIR: this.project,
      CLAUDE_PLUGIN_ROOT: PLUGIN,
    };
    // One server for the situation's session, as Claude Code keeps one warm.
    this.server ??= startHookServer(env);
    return (await this.server).call(EVENTS[entry], input);
  }

  async hook(entry, fields) {
    return (await this.rawHook(entry, fields)).hookSpecificOutput ?? {};
  }

  /** The reader makes no call: its message is the final one, written to the transcript, and the real Stop hook judges the stop. */
  async end(text) {
    const id = `msg_eval_${++this.calls}`;
    this.write(lines.assistant(id, { type: "text", text }, this.situation.model, this.isSub));
    const event = this.isSub ? "SubagentStop" : "Stop";
    const out = await this.rawHook(this.isSub ? "subagent-stop" : "stop", {
      hook_event_name: event,
      stop_hook_active: false,
      last_assistant_message: text,
    });
    return out.decision === "block" ? { id, refused: `${event} hook: ${out.reason}`, stopBlocked: true } : { id, stopped: true };
  }

  /** One assistant message (text, then the call) and its PreToolUse; the result line and PostToolUse when it passes. */
  async step(text, call, result) {
    const id = `toolu_eval_${++this.calls}`;
    const messageId = `msg_eval_${this.calls}`;
    const model = this.situation.model;
    if (text) this.write(lines.assistant(messageId, { type: "text", text }, model, this.isSub));
    this.write(lines.assistant(messageId, { type: "tool_use", id, name: call.tool, input: call.input }, model, this.isSub));
    const out = await this.hook("pre-tool-use", {
      hook_event_name: "PreToolUse",
      tool_name: call.tool,
      tool_input: call.input,
      tool_use_id: id,
    });
    if (out.permissionDecision === "deny") {
      const reason = `PreToolUse:${call.tool} hook error: ${out.permissionDecisionReason}`;
      this.write(lines.result(id, reason, true, this.isSub));
      return { id, refused: reason };
    }
    this.write(lines.result(id, result ?? "ok", false, this.isSub));
    return {
      id,
      ...(out.additionalContext ? { context: `PreToolUse:${call.tool} hook additional context: ${out.additionalContext}` } : {}),
    };
  }

  record(id) {
    const log = join(this.data, "sessions", `${SESSION}.jsonl`);
    return readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((r) => r.toolUseId === id && r.event === "PreToolUse");
  }

  async remove() {
    if (this.server) await (await this.server).close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Hook additional context as Claude Code shows it to the model (docs/claude-code-facts.md, "additionalContext"). */
const told = (event, out) => (out.additionalContext ? [`[system] ${event} hook additional context: ${out.additionalContext}`] : []);

/** The gating skill's activation: by the Skill tool (PreToolUse, then its lines), or typed as a slash command (its lines only). */
async function activate(box, seen) {
  const s = box.situation;
  const folder = skillFolder(s.gate);
  if (!folder) return;
  const name = skillName(s.gate.skill);
  const loaded = join(box.project, ".claude", "skills", name);
  const body = `Base directory for this skill: ${loaded}\n\n${readFileSync(join(loaded, "SKILL.md"), "utf8")}`;
  if (s.gate.slash) {
    box.write(lines.meta(body, box.isSub));
    seen.push(`You: (the user typed /${name}; its SKILL.md is loaded)`);
    return;
  }
  const input = { skill: name };
  const id = "toolu_eval_skill";
  box.write(lines.assistant("msg_eval_skill", { type: "tool_use", id, name: "Skill", input }, s.model, box.isSub));
  const out = await box.hook("pre-tool-use", { hook_event_name: "PreToolUse", tool_name: "Skill", tool_input: input, tool_use_id: id });
  if (out.permissionDecision === "deny") throw new Error(`situation ${s.id}: its Skill call was refused: ${out.permissionDecisionReason}`);
  box.write(lines.result(id, `Launching skill: ${name}`, false, box.isSub));
  box.write(lines.meta(body, box.isSub));
  seen.push(`You: (Skill ${name}; its SKILL.md is loaded)`, ...told("PreToolUse:Skill", out));
}

/** A slash command's prompt line, as Claude Code writes a typed `/name args`. */
function slashLine(text) {
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return m
    ? `<command-message>${m[1]}</command-message>\n<command-name>/${m[1]}</command-name>\n<command-args>${m[2]}</command-args>`
    : text;
}

/** Writes the situation's history through the real hooks; returns what the model saw of it, in order. */
async function playPrelude(box) {
  const s = box.situation;
  const seen = [`User: ${s.prompt}`];
  const submitted = await box.hook("user-prompt-submit", { hook_event_name: "UserPromptSubmit", prompt: s.prompt });
  // Its context goes to the main conversation's model: a subagent does not see it.
  if (!box.isSub) seen.push(...told("UserPromptSubmit", submitted));
  if (box.isSub) {
    // The parent's launch in the main file; the subagent starts (SubagentStart); its own file starts with its prompt.
    box.write(
      lines.assistant(
        "msg_parent",
        { type: "tool_use", id: "toolu_parent", name: "Agent", input: { subagent_type: s.gate?.agent, prompt: s.prompt } },
        s.parentModel ?? s.model,
        false,
      ),
      box.main,
    );
    seen.push(...told("SubagentStart", await box.hook("subagent-start", { hook_event_name: "SubagentStart" })));
  }
  box.write(lines.prompt(s.gate?.slash ? slashLine(s.prompt) : s.prompt, box.isSub), box.file);
  await activate(box, seen);
  for (const step of s.prelude ?? []) {
    const done = await box.step(step.text, step, step.result);
    if (done.refused) throw new Error(`situation ${s.id}: a prelude step was refused: ${done.refused}`);
    seen.push(`You: ${step.text}\n[call] ${step.tool} ${JSON.stringify(step.input)}`, `[result] ${step.result ?? "ok"}`);
    if (done.context) seen.push(`[system] ${done.context}`);
  }
  return seen;
}

/** Tokens by Claude's older tokenizer (`@anthropic-ai/tokenizer`): an approximation of what the model writes. */
export async function tokens(text) {
  const { countTokens } = await import("@anthropic-ai/tokenizer");
  return countTokens(text);
}

/** The lines of the last report in a message: its Candidates table if any, Action through Rationale. */
export function lastReportText(text) {
  const rows = text.split("\n");
  const label = (name) => new RegExp(`^\\s*(?:[-*>]\\s*)?[*_\`]*\\s*${name}\\s*[*_\`]*\\s*:`, "i");
  let start = -1;
  for (let i = rows.length - 1; i >= 0 && start < 0; i--) if (label("action").test(rows[i])) start = i;
  if (start < 0) return "";
  let first = start;
  for (let i = start - 1; i >= 0; i--) {
    if (label("candidates").test(rows[i])) {
      first = i;
      break;
    }
    if (!/^\s*[-*]?\s*[a-z_]+\s*:.*=/.test(rows[i])) break;
  }
  const end = rows.findIndex((r, i) => i > start && label("rationale").test(r));
  return rows.slice(first, end < 0 ? start + 3 : end + 1).join("\n");
}

/** The newest `utility:` line in what the model saw (the prelude, a refusal), or undefined when none came. */
export function lastLine(texts) {
  let found;
  for (const text of texts) for (const m of String(text).matchAll(/utility: \d+ of \d+ steps taken[^\n]*/g)) found = m[0];
  return found;
}

/** Each action's StepCost on a line: `retrieve/verify/tool_call/delegate 0.503 · respond 0.29 · stop 0`. */
export function lineCosts(line) {
  const costs = {};
  const actions = ["respond", "retrieve", "tool_call", "verify", "delegate", "stop"];
  for (const m of (line ?? "").matchAll(/((?:[a-z_]+\/)*[a-z_]+) (\d+(?:\.\d+)?)(?= ·|$)/g))
    for (const action of m[1].split("/")) if (actions.includes(action)) costs[action] = Number(m[2]);
  return costs;
}

/** The StepCost the attempt's report wrote, against the line's for its action: copied (or raised, which the Markdown allows)? */
function stepCostAgainst(text, line) {
  const report = lastReportText(text);
  const action = /action\s*[*_`]*\s*:\s*[*_`]*\s*([a-z_]+)/i.exec(report)?.[1]?.toLowerCase();
  const written = /StepCost\s*=\s*(-?\d+(?:\.\d+)?)/i.exec(report)?.[1];
  if (action === undefined || written === undefined) return undefined;
  const expected = lineCosts(line)[action];
  return {
    action,
    written: Number(written),
    ...(expected !== undefined ? { line: expected, fromLine: Number(written) >= expected - 1e-9 } : { line: null }),
  };
}

/** Did the attempt end the way the situation calls for? `call`: it passed; `end`: its report ended the loop (respond or stop, arithmetic right). */
function verdict(situation, outcome, record) {
  if (outcome.stopped)
    return { ok: situation.expect === "end" || situation.expect === "either", got: "ended (no call; Stop hook let it stop)" };
  if (outcome.stopBlocked) return { ok: false, got: "stop blocked" };
  if (!outcome.refused) return { ok: situation.expect === "call" || situation.expect === "either", got: "passed" };
  const ended =
    ["loop_ended", "budget_spent", "below_floor"].includes(record?.rule) && ["respond", "stop"].includes(record?.report?.action);
  if (ended) return { ok: situation.expect === "end" || situation.expect === "either", got: `ended (${record.report.action})` };
  return { ok: false, got: `refused (${record?.rule})` };
}

/**
 * Runs the situation with the reader's texts (the first try, then retries after its refusals).
 * A situation's `planted` attempt (a refusal situation) runs before them.
 */
export async function runSituation(situation, readerTexts) {
  const box = new Sandbox(situation);
  try {
    const seen = await playPrelude(box);
    const attempts = [];
    const texts = [
      ...(situation.planted ? [{ text: situation.planted, planted: true }] : []),
      ...readerTexts.map((t) => ({ text: messageOf(t), call: callOf(t), noCall: declaresNoCall(t) })),
    ];
    for (const { text, planted, call, noCall } of texts) {
      const outcome = noCall ? await box.end(text) : await box.step(text, call ?? situation.call, situation.result);
      const record = noCall ? undefined : box.record(outcome.id);
      const judged = planted ? { ok: false, got: `refused (${record?.rule})` } : verdict(situation, outcome, record);
      const stepCost = planted ? undefined : stepCostAgainst(text, lastLine(seen));
      attempts.push({
        planted: planted === true,
        ...(call ? { call: call.tool } : {}),
        ...judged,
        rule: record?.rule,
        message: outcome.refused,
        tokens: await tokens(text),
        reportTokens: await tokens(lastReportText(text)),
        ...(stepCost ? { stepCost } : {}),
        ...(outcome.context ? { context: outcome.context } : {}),
      });
      seen.push(outcome.refused ?? "", outcome.context ?? "");
      if (!outcome.refused) break;
    }
    const tries = attempts.filter((a) => !a.planted);
    const read = readerTexts[0] === undefined ? { files: [], words: 0 } : filesRead(readerTexts[0]);
    const guesses = readerTexts.flatMap((t) => guessesOf(t));
    return {
      id: situation.id,
      read,
      ...(guesses.length > 0 ? { guesses } : {}),
      scope: situation.scope,
      expect: situation.expect,
      firstTry: tries[0]?.ok ?? false,
      secondTry: tries[0]?.ok ? undefined : (tries[1]?.ok ?? false),
      attempts,
    };
  } finally {
    await box.remove();
  }
}

/** The planted attempt's refusal, as the reader sees it (for a refusal situation's prompt). */
export async function plantedRefusal(situation) {
  if (!situation.planted) return undefined;
  const box = new Sandbox(situation);
  try {
    await playPrelude(box);
    return (await box.step(situation.planted, situation.call, situation.result)).refused;
  } finally {
    await box.remove();
  }
}

/** The repository path of the skill that gates a situation, or of the agent definition it runs under. */
function activeFileOf(situation) {
  const active = skillFolder(situation.gate);
  if (active) return join(active, "SKILL.md").slice(ROOT.length + 1);
  return situation.gate?.agent ? `test/eval/agents/${situation.gate.agent}.md` : undefined;
}

/** The prompt a reader gets: only the Markdown, the situation, and what the model would have seen. */
export async function readerPrompt(situation) {
  const box = new Sandbox(situation);
  let seen;
  try {
    seen = await playPrelude(box);
  } finally {
    await box.remove();
  }
  const refusal = await plantedRefusal(situation);
  const activeFile = activeFileOf(situation);
  const parts = [
    `You are the model in a Claude Code session (${situation.model}) with the \`utility\` plugin installed.`,
    situation.scope === "subagent"
      ? "You are a subagent: another agent launched you with the prompt below."
      : "You are the main conversation.",
    "",
    `Read only these files of the repository (paths from its root): ${activeFile ? `\`${activeFile}\` (the ${situation.gate?.agent ? "agent definition you run under" : "skill the session activated"}), ` : ""}then \`${GUIDANCE_FILES[0]}\`, and a module it points to only if your situation calls for it (${GUIDANCE_FILES.slice(
      1,
    )
      .map((f) => `\`${f}\``)
      .join(", ")}). Read nothing else of the repository.`,
    "",
    "The conversation so far:",
    "",
    ...seen.map((l) => `> ${l.replace(/\n/g, "\n> ")}`),
    "",
  ];
  if (refusal) {
    parts.push(
      `You then wrote:`,
      "",
      ...situation.planted.split("\n").map((l) => `> ${l}`),
      "",
      `and called ${situation.call.tool} ${JSON.stringify(situation.call.input)}. The call was refused:`,
      "",
      `> ${refusal}`,
      "",
      `Write the message you would write next. If you retry, the same call (${situation.call.tool} ${JSON.stringify(situation.call.input)}) follows your text, unless you name another.`,
    );
  } else {
    parts.push(
      `${situation.next} Your next call would be ${situation.call.tool} ${JSON.stringify(situation.call.input)}. Write the text of the assistant message you would write before it; the call follows your text. If you would make another call instead, name it. If you decide to make no call, write your message instead.`,
    );
  }
  parts.push(
    "",
    "Answer in exactly this form (the CALL line only if you would make a different call than the one named; `CALL: none` if you make no call):",
    "",
    "FILES: <the files you read, comma-separated>",
    'GUESSES: <each place where the files left you to guess, separated by " | ", or none>',
    'CALL: <Tool> <its input as one line of JSON, e.g. Read {"file_path":"src/x.py"}>',
    "MESSAGE:",
    "<your message, exactly as you would write it>",
  );
  return parts.join("\n");
}

/** The numbers docs/guidance-eval.md records, over one run of --all. */
export function summarize(results) {
  const failedFirst = results.filter((r) => !r.firstTry);
  const readerTries = results.flatMap((r) => r.attempts.filter((a) => !a.planted));
  const callReports = readerTries.filter((a) => a.got === "passed").map((a) => a.reportTokens);
  const allReports = readerTries.map((a) => a.reportTokens);
  const mean = (xs) => (xs.length === 0 ? undefined : Math.round((xs.reduce((x, y) => x + y, 0) / xs.length) * 10) / 10);
  const costed = readerTries.map((a) => a.stepCost).filter((c) => c !== undefined);
  const withLine = costed.filter((c) => c.line !== null);
  return {
    situations: results.length,
    firstTryPassed: results.length - failedFirst.length,
    firstTryRate: results.length === 0 ? undefined : (results.length - failedFirst.length) / results.length,
    refusedFirst: failedFirst.length,
    secondTryPassed: failedFirst.filter((r) => r.secondTry).length,
    wordsRead: { mean: mean(results.map((r) => r.read.words)), max: Math.max(0, ...results.map((r) => r.read.words)) },
    reportTokens: { meanPassedCalls: mean(callReports), max: Math.max(0, ...allReports) },
    /** Reports whose StepCost is the line's for their action (or above it), of those written with a line in view; and those with none. */
    stepCostFromLine: {
      copied: withLine.filter((c) => c.fromLine).length,
      of: withLine.length,
      noLine: costed.filter((c) => c.line === null).map((c) => `${c.action} ${c.written}`),
    },
  };
}

/** The repository files a reader may open: the guidance, and every situation's activated skill or agent definition. */
export function readerFiles() {
  const own = allSituations()
    .map((s) => activeFileOf(s))
    .filter((f) => f !== undefined);
  return [...new Set([...GUIDANCE_FILES, ...own])].sort();
}

/** The whole of test/eval/READER-PROMPT.md: how to run a round, then each situation's prompt. */
export async function readerPromptDocument() {
  const head = readFileSync(join(ROOT, "test", "eval", "READER-HEAD.md"), "utf8").trimEnd();
  const sections = [];
  for (const s of allSituations()) {
    const expected =
      s.expect === "call"
        ? "the call passes the gate"
        : s.expect === "end"
          ? "the report ends the loop (respond or stop); no call passes"
          : "either";
    sections.push(`## ${s.id}\n\nExpected: ${expected}.\n\n\`\`\`\`text\n${await readerPrompt(s)}\n\`\`\`\``);
  }
  return `${head}\n\n${sections.join("\n\n")}\n`;
}

async function main(argv) {
  if (argv[0] === "--prompt") {
    process.stdout.write(`${await readerPrompt(loadSituation(argv[1]))}\n`);
    return;
  }
  if (argv[0] === "--reader-prompt") {
    process.stdout.write(await readerPromptDocument());
    return;
  }
  if (argv[0] === "--reader-copy") {
    if (!argv[1]) {
      process.stderr.write("usage: run.mjs --reader-copy DIR\n");
      process.exitCode = 2;
      return;
    }
    for (const file of readerFiles()) {
      mkdirSync(dirname(join(argv[1], file)), { recursive: true });
      cpSync(join(ROOT, file), join(argv[1], file));
    }
    process.stdout.write(`${readerFiles().join("\n")}\n`);
    return;
  }
  if (argv[0] === "--all") {
    const dir = argv[1];
    const results = [];
    for (const s of allSituations()) {
      const first = join(dir, `${s.id}.txt`);
      if (!existsSync(first)) continue;
      const retry = join(dir, `${s.id}.retry.txt`);
      const texts = [readFileSync(first, "utf8"), ...(existsSync(retry) ? [readFileSync(retry, "utf8")] : [])];
      const result = await runSituation(s, texts);
      results.push(result);
      process.stdout.write(`${JSON.stringify(result)}\n`);
    }
    process.stdout.write(`${JSON.stringify({ summary: summarize(results) })}\n`);
    return;
  }
  if (argv.length < 2) {
    process.stderr.write(
      "usage: run.mjs SITUATION.json TEXT [RETRY] | --prompt SITUATION.json | --reader-prompt | --reader-copy DIR | --all TEXTS_DIR\n",
    );
    process.exitCode = 2;
    return;
  }
  const [file, ...texts] = argv;
  const result = await runSituation(
    loadSituation(file),
    texts.map((t) => readFileSync(t, "utf8")),
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
