// A prompt whose transcript line can never be read (issue 31, hole 17).
import type { SessionEvent } from "../engine/session/events.js";
import { isNotification } from "../engine/session/prompt-kind.js";
import { scopeAt } from "../engine/session/reduce.js";
import type { SessionState } from "../engine/session/state.js";
import { promptKey, type PromptText } from "../ingest/prompts.js";
import type { HookContext } from "./context.js";
import type { UserPromptSubmitInput } from "./input.js";
import type { ScopeRef } from "./scope.js";
import { skillGateSource } from "./skill-call.js";
import { transcriptTroubleOf } from "./transcript.js";
import { keepsNoTranscript, NO_TRANSCRIPT, NO_TRANSCRIPT_TOLD, startedWithoutPersistence } from "./no-transcript.js";

/**
 * What a prompt is when its transcript line can never be read: the
 * transcript is a link, a FIFO or a folder, or gone after lines were read
 * (a model's shell did it; Claude Code's sandbox prevents it), or Claude
 * Code keeps none (`--no-session-persistence`, issue 31, hole 11: then the
 * user is told so at the first prompt, `told`). The line would
 * say whether the prompt was typed; without it, the next task would never
 * start, and a session whose last task was gated would refuse every call of
 * the user's next, ungated one. So the prompt is taken as typed by what its
 * text shows: a `<task-notification>` is one, starting nothing; a slash
 * command counts as loading its skill at once (stricter: a gated skill gates
 * the task, and its calls are refused, no report being readable). The
 * plugin's own `/utility …` commands are left to their own hooks: `on`
 * applies at its vouch, and `off` never applies unseen. A wakeup the model
 * scheduled before it replaced the transcript is taken as typed
 * (docs/limits.md). Nothing when the transcript can be read.
 */
export async function promptWithoutLine(
  session: SessionState,
  ref: ScopeRef,
  input: UserPromptSubmitInput,
  prompt: PromptText,
  ctx: HookContext,
): Promise<{ events: SessionEvent[]; trouble?: string; told?: string }> {
  const kept = keepsNoTranscript(input.transcript_path, session, ctx.env, ctx.clock().getTime()) && startedWithoutPersistence(ctx.env);
  // Said once, at the session's first prompt.
  const told = kept && (session.promptSeq ?? 0) === 0 ? { told: NO_TRANSCRIPT_TOLD } : {};
  if (prompt.own) return { events: [], ...told };
  const trouble = kept ? NO_TRANSCRIPT : transcriptTroubleOf(ref, scopeAt(session, "main").offset);
  if (trouble === undefined) return { events: [] };
  return { events: await takenByText(input, prompt, ctx), trouble, ...told };
}

/** The prompt as its text shows it: a notification, or typed; a typed slash command loads its skill when that gates. */
async function takenByText(input: UserPromptSubmitInput, prompt: PromptText, ctx: HookContext): Promise<SessionEvent[]> {
  const text = input.prompt ?? "";
  const notification = isNotification(text);
  const events: SessionEvent[] = [
    { kind: "prompt_line", key: promptKey(input.prompt_id), lineKind: notification ? "notification" : "typed" },
  ];
  const name = prompt.slash && !notification ? /^\s*\/(\S+)/.exec(text)?.[1] : undefined;
  const source = name === undefined ? undefined : await skillGateSource({ skill: name }, input.cwd, ctx);
  return source ? [...events, { kind: "skill_loaded", scope: "main", source }] : events;
}
