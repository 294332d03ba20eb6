import type { Spend } from "../spend.js";
import type { SessionDraft, SessionState } from "./state.js";

/** Top-level copy: scopes are replaced whole by the scope reducer, never changed in place (./reduce.ts). Pure. */
export function copySession(session: SessionState): SessionDraft {
  const draft = { ...session, agents: { ...session.agents } } as SessionDraft;
  if (session.prompts) draft.prompts = { ...session.prompts };
  if (session.spend) draft.spend = copySpend(session.spend);
  return draft;
}

export function copySpend(spend: Readonly<Spend> | (SessionState["spend"] & object)): Spend {
  const byModel: Spend["byModel"] = {};
  for (const [model, tokens] of Object.entries(spend.byModel)) byModel[model] = { ...tokens };
  return { tokens: { ...spend.tokens }, byModel, toolCalls: spend.toolCalls, agentsLaunched: spend.agentsLaunched };
}
