// Every hook the plugin answers: its input schema and its handler, in one
// table the command entries (./entries/) and any other transport share.
import type { HookContext } from "./context.js";
import {
  PreCompactInputSchema,
  PreToolUseInputSchema,
  SessionEndInputSchema,
  StopInputSchema,
  SubagentStartInputSchema,
  UserPromptSubmitInputSchema,
} from "./input.js";
import { preCompact } from "./pre-compact.js";
import { preToolUse } from "./pre-tool-use.js";
import type { HookResult } from "./records.js";
import type { HookSchema } from "./run.js";
import { sessionEnd } from "./session-end.js";
import { stopHook } from "./stop.js";
import { subagentStart } from "./subagent-start.js";
import { userPromptSubmit } from "./user-prompt-submit.js";

export interface HookHandler<T> {
  schema: HookSchema<T>;
  handle(input: T, ctx: HookContext): Promise<HookResult>;
}

const handler = <T>(schema: HookSchema<T>, handle: (input: T, ctx: HookContext) => Promise<HookResult>): HookHandler<T> => ({
  schema,
  handle,
});

export const HOOK_HANDLERS = {
  UserPromptSubmit: handler(UserPromptSubmitInputSchema, userPromptSubmit),
  PreToolUse: handler(PreToolUseInputSchema, preToolUse),
  SubagentStart: handler(SubagentStartInputSchema, subagentStart),
  Stop: handler(StopInputSchema, (input, ctx) => stopHook(input, ctx, "Stop")),
  SubagentStop: handler(StopInputSchema, (input, ctx) => stopHook(input, ctx, "SubagentStop")),
  PreCompact: handler(PreCompactInputSchema, preCompact),
  SessionEnd: handler(SessionEndInputSchema, sessionEnd),
} as const;

export type HookEvent = keyof typeof HOOK_HANDLERS;
