import {
  PostToolUseInputSchema,
  PreCompactInputSchema,
  PreToolUseInputSchema,
  SessionStartInputSchema,
  StopInputSchema,
  UserPromptSubmitInputSchema,
} from "./input.js";
import type { HookContext } from "./context.js";
import type { HookResult } from "./output.js";
import { postToolUse } from "./post-tool-use.js";
import { preCompact } from "./pre-compact.js";
import { preToolUse } from "./pre-tool-use.js";
import { sessionStart } from "../server/sentinel.js";
import { stopHook } from "./stop.js";
import { userPromptSubmit } from "./user-prompt-submit.js";
import { runHook, type Schema } from "./run.js";

/** One hook event: the schema its input must pass, and the handler that answers it. */
export interface HookRoute<T> {
  schema: Schema<T>;
  handler: (input: T, ctx: HookContext) => Promise<HookResult>;
}

const route = <T>(schema: Schema<T>, handler: HookRoute<T>["handler"]): HookRoute<T> => ({ schema, handler });

/**
 * The one dispatch table: hook event → input schema → handler. The command
 * entries (src/hooks/entries/) and the warm server (src/server/) both answer
 * from it, so an event's input and its handling are written once.
 */
export const HOOK_ROUTES = {
  PreToolUse: route(PreToolUseInputSchema, preToolUse),
  UserPromptSubmit: route(UserPromptSubmitInputSchema, userPromptSubmit),
  Stop: route(StopInputSchema, (input, ctx) => stopHook(input, ctx, "Stop")),
  SubagentStop: route(StopInputSchema, (input, ctx) => stopHook(input, ctx, "SubagentStop")),
  PreCompact: route(PreCompactInputSchema, preCompact),
  PostToolUse: route(PostToolUseInputSchema, postToolUse),
  SessionStart: route(SessionStartInputSchema, sessionStart),
} as const;

export type HookEvent = keyof typeof HOOK_ROUTES;

export function isHookEvent(name: string): name is HookEvent {
  return Object.hasOwn(HOOK_ROUTES, name);
}

/** A command entry: one hook process answering one event from the table. */
export function runRoute(event: HookEvent): Promise<void> {
  const { schema, handler } = HOOK_ROUTES[event] as HookRoute<unknown>;
  return runHook(event, schema, handler);
}
