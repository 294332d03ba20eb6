// What PreToolUse tells Claude Code (a refusal, the user asked, a line of
// context, a settings warning) and the one record it logs for a call.
import type { SessionDecision } from "../engine/session/decide.js";
import { scopeAt } from "../engine/session/reduce.js";
import { callMessageOf } from "../engine/session/scope-usage.js";
import type { LogRecord, RecordSpend } from "../log/record.js";
import type { HookContext } from "./context.js";
import type { PreToolUseInput } from "./input.js";
import { baseRecord, loggedReport, type HookResult, type RecordScope } from "./records.js";
import type { ScopeRef } from "./scope.js";
import type { SessionState } from "../engine/session/state.js";

/**
 * What Claude Code is told: a refusal ("deny", with the reason the model
 * reads), the user asked (SPEC §14: "ask", with the reason the user reads;
 * in `-p` the model reads it as a refusal), or a line of context. Never
 * "allow". Identical-outcome notices go with whichever it is.
 */
export function answer(decided: SessionDecision, context: string | undefined, notices: readonly string[]): HookResult {
  const { decision } = decided;
  const told = notices.length > 0 ? `\n${notices.join("\n")}` : "";
  // "utility gate:" where a gate decided; a budget or guard that binds an ungated scope too says "utility:".
  const who = decided.gate ? "utility gate" : "utility";
  if (decision.decision === "refused") return permission("deny", `${who}: ${decision.reason}${context ? `\n${context}` : ""}${told}`);
  if (decision.decision === "passed" && decision.fallback) return asked(`${decision.fallback.reason}${told}`);
  const hints = [context ?? (decision.decision === "observed" ? decision.hint : undefined), ...notices].filter(
    (h): h is string => h !== undefined,
  );
  return hints.length > 0 ? { output: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: hints.join("\n") } } } : {};
}

/**
 * "ask", with the reason: Claude Code shows it in a Bash prompt, but its
 * dialog for a file edit (Edit, Write, MultiEdit, NotebookEdit) shows only
 * the diff, in every permission mode (issue 34); the same words as a
 * `systemMessage` reach the screen there too.
 */
function asked(reason: string): HookResult {
  const result = permission("ask", reason);
  return { ...result, output: { ...result.output, systemMessage: reason } };
}

function permission(permissionDecision: "deny" | "ask", permissionDecisionReason: string): HookResult {
  return { output: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason } } };
}

export function record(
  ctx: HookContext,
  where: RecordScope & { input: PreToolUseInput },
  decided: SessionDecision,
  started: number,
): LogRecord {
  const { decision } = decided;
  const { input, ref, session } = where;
  const spend = recordSpendOf(session, ref, input.tool_use_id);
  return {
    ...baseRecord(ctx, "PreToolUse", where, started),
    tool: input.tool_name,
    ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
    inputDigest: decided.digest,
    decision: decision.decision === "refused" || decision.decision === "passed" ? decision.decision : "observed",
    ...(decision.decision === "refused" ? { rule: decision.rule, reason: decision.reason } : {}),
    ...(decision.decision === "passed" && decision.fallback ? { fallback: decision.fallback.to, reason: decision.fallback.reason } : {}),
    ...(decided.stuck ? { stuck: { steps: decided.stuck.map((run) => run.at) } } : {}),
    ...reportFields(decision),
    ...(decided.repeat
      ? { repeat: { ofStep: decided.repeat.at, ...(decided.repeat.toolUseId ? { toolUseId: decided.repeat.toolUseId } : {}) } }
      : {}),
    ...(spend ? { spend } : {}),
  };
}

/** The usage of the assistant message that made this call, when its line has been read (SPEC §8). */
function recordSpendOf(session: SessionState, ref: ScopeRef, toolUseId: string | undefined): RecordSpend | undefined {
  const found = toolUseId ? callMessageOf(scopeAt(session, ref.key), toolUseId) : undefined;
  return found
    ? { messageId: found.messageId, ...(found.model !== undefined ? { model: found.model } : {}), tokens: found.tokens }
    : undefined;
}

/** The report the decision read, as logged, and the selection it claims; nothing when there was none. */
function reportFields(decision: SessionDecision["decision"]): Pick<LogRecord, "report" | "selection"> {
  const evaluation = decision.decision === "passed" || decision.decision === "refused" ? decision.evaluation : undefined;
  const report = evaluation?.report ?? (decision.decision === "refused" ? decision.report : undefined);
  if (!report) return {};
  return {
    report: loggedReport(report, evaluation),
    selection: { strategy: "reported" as const, candidates: report.candidates?.length ?? 1, chosen: report.action },
  };
}

export function withWarning(result: HookResult, warning: string | undefined): HookResult {
  if (!warning) return result;
  const told = `utility: ${warning} Until then the plugin goes on without it; the valid settings still apply.`;
  return { ...result, output: { ...(result.output ?? {}), systemMessage: told }, stderr: told };
}
