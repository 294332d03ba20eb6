import { transcriptSize } from "../transcript/source.js";
import { sha256Hex } from "../engine/sha256.js";
import { join } from "node:path";
import type { ScopeEvent } from "../engine/scope-state/events.js";
import type { Outcome } from "../engine/scope-state/reducer.js";
import { gateSourceFrom, manualSource } from "../engine/gate-policy.js";
import type { GateSource, ScopeState, SessionState } from "../state/schema.js";
import { readEventsFrom } from "../transcript/forward-reader.js";
import { skillBaseDir, type TranscriptEvent } from "../transcript/line.js";
import { classifyPrompt, type LineKind, type PromptKind } from "../transcript/prompt-kind.js";
import { readEventsBackward } from "../transcript/reverse-reader.js";
import { observedEvents } from "../transcript/scope-events.js";
import { keepsLine, isPrompt } from "../transcript/line-filter.js";
import { withSource } from "../transcript/source.js";
import { reduceScope, type ScopeRef } from "./scope.js";

// Pure rules over the state, shared with the CLI; they live in src/engine/gate-policy.ts.
export { effectiveGate, gateSourceFrom, manualSource, MANUAL_GATE_FILE, readsAsNo } from "../engine/gate-policy.js";

/**
 * The key a prompt is vouched under: a digest of its prompt id, never the id
 * itself. The state and the log are files a model's shell can read; were the
 * id in them, a shell job could append a line that claims the id before
 * Claude Code writes the prompt's own (SPEC §2). Versions without prompt ids
 * write none on the line either; their prompt is matched by the empty key.
 */
export function promptKey(promptId: string | null | undefined): string {
  return typeof promptId === "string" && promptId !== "" ? sha256Hex(`utility prompt ${promptId}`).slice(0, 32) : "";
}

export type SkillLoader = (skillFile: string) => Promise<GateSource | undefined>;

/** Loads a skill's opt-in; the frontmatter reader (gray-matter, js-yaml) is imported only when a skill is activated. */
export const loadSkillSource: SkillLoader = async (skillFile) => {
  const { readOptIn } = await import("../optin/read.js");
  return gateSourceFrom(skillFile, readOptIn(skillFile));
};

/** What a scan saw, in transcript order: skill activations, prompt lines (main scope), and what the lines tell the reducer. */
export type ScanItem =
  | { kind: "skill"; folder: string }
  /** promptId: the line's promptKey; "" for a line without one (versions before prompt ids). */
  | { kind: "prompt"; lineKind: LineKind; promptId: string }
  /** Results, compactions, usage, background jobs' ends (src/transcript/scope-events.ts). */
  | { kind: "event"; event: ScopeEvent };

export interface ScanResult {
  items: ScanItem[];
  compacted: boolean;
  nextOffset: number;
}

/**
 * What happened in the scope's transcript since the hooks last looked. Reads
 * forward from the stored offset only (spend is never recomputed from the
 * whole file). The first look at a main transcript reads back to the task's
 * start only, never the whole file; so does a look whose stored offset lies
 * past the file's end (the transcript changed under the plugin, SPEC §10).
 * Whether a prompt line starts a task is applyScan's question: it needs the
 * state's vouched prompts.
 */
export function scanTranscript(scope: ScopeState, ref: ScopeRef, vouched?: (promptId: string) => boolean): ScanResult {
  // At a scope's first call Claude Code may not have created its transcript yet: nothing to see so far.
  const size = transcriptSize(ref.transcript);
  if (size < 0) return { items: [], compacted: false, nextOffset: scope.offset };
  if ((scope.offset === 0 || scope.offset > size) && ref.kind === "main") return scanTaskStart(ref, size, vouched);
  const read = readEventsFrom(ref.transcript, scope.offset > size ? 0 : scope.offset);
  const items: ScanItem[] = [];
  let compacted = false;
  for (const event of read.events) {
    if (!keepsLine(event, { lines: ref.lines })) continue;
    if (event.kind === "compact") compacted = true;
    items.push(...itemsOf(event, ref));
  }
  return { items, compacted, nextOffset: read.shrunk ? 0 : read.nextOffset };
}

function itemsOf(event: TranscriptEvent, ref: ScopeRef): ScanItem[] {
  const items: ScanItem[] = [];
  if (event.kind === "user_text" && ref.kind === "main" && event.lineKind !== "meta") {
    items.push({ kind: "prompt", lineKind: event.lineKind, promptId: promptKey(event.promptId) });
  }
  for (const observed of observedEvents(event)) items.push({ kind: "event", event: observed });
  const folder = skillBaseDir(event);
  if (folder) items.push({ kind: "skill", folder });
  return items;
}

/**
 * Back from the end to where the current task began: the last line that
 * looks typed and that a UserPromptSubmit vouched for; when the state knows
 * no vouched prompt (it is new, or was lost), the last line that looks typed.
 */
function scanTaskStart(ref: ScopeRef, size: number, vouched: ((promptId: string) => boolean) | undefined): ScanResult {
  const newest: ScanItem[][] = [];
  let compacted = false;
  const isStart = (event: TranscriptEvent) =>
    event.kind === "user_text" && isPrompt(event) && (!vouched || vouched(promptKey(event.promptId)));
  // The size is taken before reading: lines written meanwhile are read again next time, never skipped.
  withSource(ref.transcript, (bytes) => {
    for (const event of readEventsBackward(bytes)) {
      if (!keepsLine(event, { lines: ref.lines })) continue;
      if (event.kind === "compact") compacted = true;
      newest.push(itemsOf(event, ref));
      if (isStart(event)) break;
    }
  });
  return { items: newest.reverse().flat(), compacted, nextOffset: size };
}

/**
 * A skill may just have been activated (a Skill call, a slash command, a
 * prompt after one): the scope's next call waits for its own line, after
 * which every line the activation wrote is there.
 */
export function awaitActivation(scope: ScopeState): void {
  scope.awaitingActivation = true;
  delete scope.awaitingPrompt;
}

const SLASH_COMMAND = /^\s*\//;

/**
 * A prompt that is no slash command activates no skill: once its own line is
 * written, the next call need not wait. Behind an activation still awaited,
 * the wait stays whole.
 */
export function awaitPrompt(scope: ScopeState, promptId: string, prompt: string | undefined): void {
  const whole = SLASH_COMMAND.test(prompt ?? "") || (scope.awaitingActivation === true && scope.awaitingPrompt === undefined);
  if (whole) return awaitActivation(scope);
  scope.awaitingActivation = true;
  scope.awaitingPrompt = promptId;
}

/** Nothing is awaited any more: the hook that scanned under the lock saw what there was. */
export function activationSeen(scope: ScopeState): void {
  delete scope.awaitingActivation;
  delete scope.awaitingPrompt;
}

/**
 * Does the scope still await an activation? Not once the plain prompt it
 * awaits has its line among the scope's new lines (then so does every line
 * before it, and applying the scan applies the prompt). `scan` is asked only
 * then, so a caller can reuse the one it already made.
 */
export function stillAwaiting(scope: ScopeState, scan: () => ScanResult): boolean {
  if (scope.awaitingActivation !== true) return false;
  const key = scope.awaitingPrompt;
  if (key === undefined) return true;
  return !scan().items.some((item) => item.kind === "prompt" && item.promptId === key);
}

/** What applying a scan did to the task: each prompt line, and what it was. */
export interface PromptOutcome {
  promptId?: string;
  kind: PromptKind;
  switched?: "on" | "off";
}

export interface ScanApplied {
  /** Outcomes of calls whose results the lines showed (SPEC §8). */
  outcomes: Outcome[];
  prompts: PromptOutcome[];
}

/** The vouched-prompt test scanTranscript takes: undefined when the session knows none. */
export function vouchedIn(session: SessionState | undefined): ((promptId: string) => boolean) | undefined {
  const prompts = session?.prompts;
  if (!prompts || Object.keys(prompts).length === 0) return undefined;
  return (promptId) => Object.hasOwn(prompts, promptId);
}

/**
 * Applies a scan to the scope, in transcript order, through the scope's
 * reducer: a typed prompt that a UserPromptSubmit vouched for starts a task
 * or, `/utility on|off`, switches the gate; any other prompt line (a
 * notification, a wakeup, Stop feedback, a line a shell appended) changes
 * neither. Results, compactions, usage and background jobs' ends go to the
 * reducer as they come; new skills are loaded once per task.
 */
export async function applyScan(scope: ScopeState, scan: ScanResult, load: SkillLoader, session?: SessionState): Promise<ScanApplied> {
  const applied: ScanApplied = { outcomes: [], prompts: [] };
  for (const item of scan.items) {
    if (item.kind === "prompt") applied.prompts.push(applyPrompt(scope, item, session));
    else if (item.kind === "event") applied.outcomes.push(...reduceScope(scope, [item.event]));
    else await addSkill(scope, item.folder, load);
  }
  scope.offset = scan.nextOffset;
  return applied;
}

function applyPrompt(scope: ScopeState, item: Extract<ScanItem, { kind: "prompt" }>, session: SessionState | undefined): PromptOutcome {
  const prompts = session?.prompts ?? {};
  const vouch = Object.hasOwn(prompts, item.promptId) ? prompts[item.promptId] : undefined;
  const kind = classifyPrompt(item.lineKind, item.promptId, () => vouch !== undefined);
  // One line per vouch: a second line with the same prompt id (appended by a shell) finds none.
  if (vouch) delete prompts[item.promptId];
  const outcome: PromptOutcome = { kind, promptId: item.promptId };
  if (kind !== "typed" || !vouch) return outcome;
  // Task 0: the session's first prompt, even one of the plugin's own commands, starts task 1.
  if (!vouch.own || scope.task === 0) reduceScope(scope, [{ kind: "prompt", typed: true }]);
  if (vouch.switch && session) {
    session.manualGate = vouch.switch === "on";
    outcome.switched = vouch.switch;
  }
  return outcome;
}

async function addSkill(scope: ScopeState, folder: string, load: SkillLoader): Promise<void> {
  const file = join(folder, "SKILL.md");
  if (scope.sources.some((s) => s.file === file)) return;
  const source = await load(file);
  // Ungated skills are remembered too, so their files are not read again this task.
  scope.sources.push(source ?? { ...manualSource(), file, gated: false });
}
