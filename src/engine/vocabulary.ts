import * as z from "zod/mini";

export const ACTIONS = ["respond", "retrieve", "tool_call", "verify", "delegate", "stop"] as const;
export const ActionSchema = z.enum(ACTIONS);
export type Action = z.infer<typeof ActionSchema>;

export const SCOPES = ["self", "subagent", "dispatch"] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/** Subagents execute; they do not orchestrate, so they have no `delegate`. */
export const SCOPE_ACTIONS: Record<Scope, readonly Action[]> = {
  self: ACTIONS,
  subagent: ["respond", "retrieve", "tool_call", "verify", "stop"],
  dispatch: ACTIONS,
};

/** Actions that end the loop: neither takes a tool call. */
export const ENDING_ACTIONS: readonly Action[] = ["respond", "stop"];

export function isAction(value: string): value is Action {
  return (ACTIONS as readonly string[]).includes(value);
}

export function actionsOf(scope: Scope): readonly Action[] {
  return SCOPE_ACTIONS[scope];
}
