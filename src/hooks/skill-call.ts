/**
 * A Skill call in PreToolUse (SPEC §6): in a gated scope it is judged by what
 * the skill does when it loads (src/skills/classify.ts). One that only loads
 * text stays neutral, as every Skill call is in an ungated scope; one that
 * runs shell acts as `tool_call`, one that forks as `delegate`, and one whose
 * skill cannot be found as `tool_call`: it needs a report like any call, so
 * a gated model cannot run commands or start agents through a skill without
 * one. An ungated scope is never refused for it.
 */
import { classifySkillCall, type SkillVerdict } from "../skills/classify.js";
import type { HookContext } from "./context.js";
import { PLUGIN_NAME } from "./context.js";
import type { PreToolUseInput } from "./input.js";
import type { GateSource } from "../engine/session/state.js";
import { locateSkillFiles, type SkillSearch } from "../skills/locate.js";

/** Where Claude Code looks for a skill's files, from the hook's environment. */
function skillSearch(env: HookContext["env"], cwd: string | undefined, since?: number): SkillSearch {
  return {
    env,
    ...(since !== undefined ? { since } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
    ...(env.CLAUDE_PLUGIN_ROOT ? { ownRoot: env.CLAUDE_PLUGIN_ROOT, ownName: PLUGIN_NAME } : {}),
  };
}

/** The real judge: the files Claude Code could load for the name, found from the hook's environment. */
export function judgeSkillFromEnv(env: HookContext["env"]): NonNullable<HookContext["judgeSkill"]> {
  return (toolInput, cwd, since) => classifySkillCall(toolInput, skillSearch(env, cwd, since));
}

/**
 * The opt-in of the skill a Skill call (or a typed `/name`) will load, when it
 * gates: of several files Claude Code could load for the name, the first that
 * opts in (as for an agent type defined twice). The model is told its numbers
 * before its first gated call, and the call keeps it until its result, which
 * loads it (skillWillLoad, src/engine/session/call-plan.ts); a slash command's skill still comes from its
 * "Base directory" line.
 */
export async function skillGateSource(toolInput: unknown, cwd: string | undefined, ctx: HookContext): Promise<GateSource | undefined> {
  const skill = toolInput !== null && typeof toolInput === "object" ? (toolInput as Record<string, unknown>).skill : undefined;
  if (typeof skill !== "string" || skill.trim() === "") return undefined;
  const located = await locateSkillFiles(skill, skillSearch(ctx.env, cwd));
  for (const file of located.files) {
    const source = await ctx.loadSkill(file.file);
    if (source?.gated && source.problem === undefined) return source;
  }
  return undefined;
}

/** What a Skill call's skill does as it loads, judged from its files now and since the prompt began (`since`, epoch ms). */
export async function skillVerdict(input: PreToolUseInput, ctx: HookContext, since: number | undefined): Promise<SkillVerdict> {
  const judge = ctx.judgeSkill ?? judgeSkillFromEnv(ctx.env);
  return judge(input.tool_input, input.cwd, since);
}
