/** Red team 10 harness: a scratch HOME with the user's plugin options, and each reply's usage by a mark. */
import { homeWithOptions, type RunClaudeResult } from "../support/claude.js";
import { requestText, type RecordedRequest } from "../support/scripted-model.js";
import { logOf, type Rec } from "../gate/support.js";

export { homeWithOptions };

/** Each reply's usage: `input` input tokens, by a mark anywhere in the request. */
export function usageByText(routes: Array<[string, number]>, otherwise = 10) {
  return (req: RecordedRequest) => {
    const all = requestText(req);
    const input = routes.find(([mark]) => all.includes(mark))?.[1] ?? otherwise;
    return { input_tokens: input, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  };
}

export const pre = (run: RunClaudeResult): Rec[] => logOf(run).filter((r) => r.event === "PreToolUse");
export const byId = (run: RunClaudeResult, toolUseId: string): Rec | undefined => pre(run).find((r) => r.toolUseId === toolUseId);
export const show = (run: RunClaudeResult) =>
  console.log(
    JSON.stringify(
      logOf(run)
        .filter((r) => r.event === "PreToolUse" || r.event === "SubagentStart")
        .map((r) => [r.event, r.tool, r.toolUseId?.slice(-12), r.decision, r.rule, r.scope, r.agentType, (r as any).reason?.slice(0, 160)]),
    ),
  );
