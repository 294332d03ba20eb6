import { gateSourceFrom } from "../engine/gate-policy.js";
import type { GateSource } from "../engine/session/state.js";

export type SkillLoader = (skillFile: string) => Promise<GateSource | undefined>;

/** Loads a skill's opt-in; the frontmatter reader (gray-matter, js-yaml) is imported only when a skill is activated. */
export const loadSkillSource: SkillLoader = async (skillFile) => {
  const { readOptIn } = await import("../optin/read.js");
  return gateSourceFrom(skillFile, readOptIn(skillFile));
};
