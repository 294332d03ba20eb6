import { reduceAll } from "../engine/session/reduce.js";
import { errorLine } from "../state/file-error.js";
import { promptKey } from "../ingest/prompts.js";
import { pluginRefOf } from "../claude/plugin-id.js";
import { describeUserConfigProblems } from "../optin/user-config.js";
import { readUserConfig } from "../optin/managed.js";
import { readCommandArgument, reportAnswer, switchedAnswer, usageAnswer, type CommandArgument } from "../summary/command-answer.js";
import { renderStatus, type SessionView } from "../summary/status-text.js";
import type { SessionState } from "../engine/session/state.js";
import type { HookContext } from "./context.js";
import type { UserPromptExpansionInput } from "./input.js";
import { baseRecord, type HookResult } from "./records.js";
import { scopeOf } from "./scope.js";
import { freshSession } from "./session-io.js";
import { switchReason } from "./switches.js";
import { safeId } from "../state/paths.js";
import type { OffRefusal } from "../engine/session/switch-off.js";
import { offEvidenceEvents, transcriptEnd } from "./switch-evidence.js";
import { otlpStatus } from "../otlp/progress.js";
import { parseOtlpConfig } from "../optin/otlp-config.js";
import { clickHouseStatus } from "../clickhouse/progress.js";
import { parseClickHouseConfig } from "../optin/clickhouse-config.js";

/** The name Claude Code gives the plugin's `/utility` skill in this hook's input, however it was typed. */
export const OWN_COMMAND = "utility:utility";

/**
 * UserPromptExpansion, for `/utility <argument>` (SPEC §9): the plugin
 * answers on screen and blocks the prompt, so no model turn follows and the
 * answer shows even with no model reachable. Claude Code runs this hook only
 * for a slash command the user typed (never for a wakeup, a notification or
 * the model's Skill call). But the plugin's server answers any `mcp_tool`
 * hook routed to it, whoever registered it (a skill's frontmatter, a
 * repository's settings), so `/utility off` is taken only with the prompt's
 * own UserPromptSubmit saying so, and is in force once Claude Code's own line
 * of this answer is in the transcript (src/engine/session/switch-off.ts).
 * `/utility` alone goes on to the model, which scores the situation (the
 * skill's body).
 */
export async function userPromptExpansion(input: UserPromptExpansionInput, ctx: HookContext): Promise<HookResult> {
  if (input.command_name !== OWN_COMMAND) return {};
  const read = readCommandArgument(input.command_args ?? "");
  if (read.unknown !== undefined) return shown(usageAnswer(read.unknown));
  if (read.argument === "") return {};
  // An id that may not name a file fails the hook like any other (one line, no answer): no state is read for it.
  safeId("session id", input.session_id);
  try {
    // `off` keeps Claude Code's own "Original prompt:" line under the answer: what the user typed, the evidence the switch waits for.
    return shown(await answer(read.argument, input, ctx), read.argument !== "off");
  } catch (error) {
    const why = errorLine(error);
    const unchanged = read.argument === "on" || read.argument === "off" ? " The gate was not switched." : "";
    return { ...shown(`utility: /utility ${read.argument} could not be answered: ${why}.${unchanged}\n`), stderr: `utility: ${why}` };
  }
}

async function answer(argument: CommandArgument, input: UserPromptExpansionInput, ctx: HookContext): Promise<string> {
  const started = ctx.now();
  const sw = argument === "on" || argument === "off" ? argument : undefined;
  const key = promptKey(input.prompt_id);
  // `off` waits for Claude Code's line of this answer, after where the session's own transcript ends now (./switch-evidence.ts).
  const end = sw === "off" ? transcriptEnd(input.transcript_path, input.session_id, ctx.env) : undefined;
  const at = end ? { at: ctx.clock().getTime() } : {};
  const done = await ctx.store.transact(input.session_id, (existing) => {
    const session = existing ?? freshSession(ctx, input.session_id, true);
    const evidence = offEvidenceEvents(session, input.transcript_path, ctx.env);
    const reduced = reduceAll(session, [...evidence, { kind: "command_typed", key, ...(sw ? { switch: sw } : {}), ...end, ...at }]);
    return { state: reduced.session, result: reduced };
  });
  const where = { input, ref: scopeOf({ ...input, agent_id: undefined }), session: done.session };
  ctx.appendLog(input.session_id, {
    ...baseRecord(ctx, "UserPromptExpansion", where, started),
    decision: "observed",
    reason: `${done.switchedNow ? switchReason(done.switchedNow) : `/utility ${argument}`}: ${done.offRefused ? `not taken: ${OFF_REFUSED[done.offRefused]}` : "answered on screen, no model turn"}`,
    promptId: key,
    ...(done.switchedNow ? { switched: done.switchedNow } : {}),
  });
  const view = viewOf(ctx, input.session_id, done.session);
  if (argument === "status") return renderStatus(input.session_id, view);
  if (argument === "report") return reportAnswer(input.session_id, view);
  return switchText(done, input.session_id, ctx, view);
}

/** The answer to `on` or `off`: a pending `off` as it will stand once Claude Code has written this answer (the next hook reads that line). */
function switchText(
  done: { session: SessionState; offRefused?: OffRefusal },
  sessionId: string,
  ctx: HookContext,
  view: SessionView,
): string {
  if (done.offRefused)
    return `utility: /utility off was not taken: ${OFF_REFUSED[done.offRefused]}. The gate stays on; type /utility off again.\n${renderStatus(sessionId, view)}`;
  const shown = done.session.pendingOff
    ? viewOf(ctx, sessionId, reduceAll(done.session, [{ kind: "off_evidence", shown: true }]).session)
    : view;
  return switchedAnswer(shown.state?.manualGate ? "on" : "off", sessionId, shown);
}

/** Why an `off` was not taken, in the user's words: the field, what was found and what was expected. */
const OFF_REFUSED: Record<OffRefusal, string> = {
  unvouched: "no UserPromptSubmit of this prompt id reached the plugin before it (expected one whose prompt is /utility off)",
  contested:
    "this prompt id reached the plugin's UserPromptSubmit twice with different prompts (a hook that is not the plugin's called its server)",
  not_off: "the prompt UserPromptSubmit gave for this prompt id is not /utility off",
  no_transcript: "the hook's transcript_path is not this session's own transcript under Claude Code's projects folder",
};

/** What the answer reads: the state just written, the log, and the user's settings as this hook's environment carries them. */
function viewOf(ctx: HookContext, sessionId: string, state: SessionState): SessionView {
  const userConfig = readUserConfig(ctx.env, ctx.dataDir);
  const problem = userConfig.problems.length > 0 ? describeUserConfigProblems(userConfig, pluginRefOf(ctx.env, ctx.dataDir)) : undefined;
  const otlp = otlpStatus(ctx.dataDir, sessionId, parseOtlpConfig(ctx.env).problems);
  const clickhouse = clickHouseStatus(ctx.dataDir, sessionId, parseClickHouseConfig(ctx.env).problems);
  return {
    dir: ctx.dataDir,
    state,
    records: ctx.readLog?.(sessionId) ?? [],
    userConfig,
    ...(problem ? { settingsProblem: problem } : {}),
    ...(otlp ? { otlp } : {}),
    ...(clickhouse ? { clickhouse } : {}),
  };
}

/** Shown to the user in place of the prompt: Claude Code prints the reason under its own "blocked by hook" line, and no model turn follows. */
function shown(text: string, suppressOriginalPrompt = true): HookResult {
  return {
    output: {
      decision: "block",
      reason: text.trimEnd(),
      hookSpecificOutput: { hookEventName: "UserPromptExpansion", suppressOriginalPrompt },
    },
  };
}
