import { preCompactRoute } from "./pre-compact.js";
import { preToolUseRoute } from "./pre-tool-use.js";
import { sessionEndRoute } from "./session-end.js";
import { sessionStartRoute } from "./session-start.js";
import { stopRoute } from "./stop.js";
import { subagentStartRoute } from "./subagent-start.js";
import { subagentStopRoute } from "./subagent-stop.js";
import { userPromptExpansionRoute } from "./user-prompt-expansion.js";
import { userPromptSubmitRoute } from "./user-prompt-submit.js";

export type { HookRoute } from "./route.js";

/**
 * The one dispatch table: hook event → input schema → handler, one module
 * per event (so a command entry bundles only its own). The command entries
 * (src/hooks/entries/) and the warm server (src/server/) both answer from
 * these routes, so an event's input and its handling are written once.
 */
export const HOOK_ROUTES = {
  PreToolUse: preToolUseRoute,
  UserPromptSubmit: userPromptSubmitRoute,
  UserPromptExpansion: userPromptExpansionRoute,
  SubagentStart: subagentStartRoute,
  Stop: stopRoute,
  SubagentStop: subagentStopRoute,
  PreCompact: preCompactRoute,
  SessionStart: sessionStartRoute,
  SessionEnd: sessionEndRoute,
} as const;

export type HookEvent = keyof typeof HOOK_ROUTES;
