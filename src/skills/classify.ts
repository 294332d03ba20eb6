/**
 * What a Skill call can do (SPEC §6), from the files it could load
 * (./locate.ts) and Claude Code's built-in skills: the most demanding of them
 * wins. A name no file and no built-in answers to is `unknown`: the hook
 * cannot see every place a skill may come from (an MCP server's, a folder
 * added with /add-dir during the session), so the gate counts it as
 * `tool_call` in a gated scope.
 */
import { statSync } from "node:fs";
import { builtInSkill, mostDemanding, PROCESS_KEYS, skillEffect, type SkillClass } from "../engine/skill-effect.js";
import { splitAsClaudeCode, type ParseYaml } from "../engine/claude-frontmatter.js";
import type { ActsAs } from "../engine/tools.js";
import { yamlParser } from "../claude/names.js";
import { locateSkillFiles, type SkillFile, type SkillSearch } from "./locate.js";

export type SkillCallClass = SkillClass | "unknown";

export interface SkillVerdict {
  class: SkillCallClass;
  /** Why, in words, for a refusal: what the deciding file (or the built-in) does. */
  why: string;
  /** A file it could load whose frontmatter registers hooks: commands Claude Code runs on its events, outside the gate. */
  hooksFrom?: string;
  /** The agent type it runs as when a file it could load says `context: fork` (`general-purpose` unless `agent:` says). */
  forksAs?: string;
}

/** A parser that is never loaded: called only when a block could hold `context: fork`, hooks or a process key, and then it is loaded first. */
const notLoaded: ParseYaml = () => {
  throw new Error("the YAML reader was not loaded");
};

async function parserFor(text: string): Promise<ParseYaml> {
  const { block } = splitAsClaudeCode(text);
  return block !== undefined && NEEDS_YAML.test(block) ? yamlParser() : notLoaded;
}

const NEEDS_YAML = new RegExp(["context", "fork", "hooks", ...PROCESS_KEYS, String.raw`\\`].join("|"));

function describe(name: string, file: string, effect: ReturnType<typeof skillEffect>): string {
  if (effect.registersHooks)
    return `skill "${name}" registers hooks when it loads (hooks: in ${file}), commands Claude Code runs outside the gate`;
  if (effect.starts.length > 0) return `skill "${name}" may start processes when it loads (${effect.starts.join(", ")} in ${file})`;
  if (effect.forks)
    return `skill "${name}" runs in a forked subagent${effect.agent ? ` (${effect.agent})` : ""} when it loads (context: fork in ${file})`;
  const shown =
    effect.commands.length > 0
      ? `: ${effect.commands
          .slice(0, 2)
          .map((c) => JSON.stringify(c.slice(0, 60)))
          .join(", ")}`
      : "";
  return `skill "${name}" runs shell commands when it loads (${file}${shown})`;
}

const BUILT_IN_WHY: Record<SkillClass, string> = {
  neutral: "loads text only",
  tool_call: "runs shell commands (git) when it loads",
  delegate: "runs in a forked subagent",
};

/** The class of a Skill call's input (`{skill, args?}`), and why. */
export async function classifySkillCall(input: unknown, search: SkillSearch): Promise<SkillVerdict> {
  const skill = input !== null && typeof input === "object" ? (input as Record<string, unknown>).skill : undefined;
  if (typeof skill !== "string" || skill.trim() === "") return { class: "unknown", why: "the Skill call names no skill" };
  const judged: Array<{ class: SkillClass; why: string }> = [];
  const located = await locateSkillFiles(skill, search);
  if (located.incomplete.length > 0) {
    judged.push({
      class: "tool_call",
      why: `${located.incomplete[0]} holds more files than the hooks read, so what "${skill}" loads cannot be known`,
    });
  }
  const { hooksFrom, forksAs } = await judgeFiles(skill, located.files, search.since, judged);
  const builtIn = builtInSkill(skill.trim().replace(/^\//, ""));
  if (builtIn !== undefined) judged.push({ class: builtIn, why: `built-in skill "${skill}" ${BUILT_IN_WHY[builtIn]}` });
  if (judged.length === 0) {
    return { class: "unknown", why: `no skill file or built-in skill named "${skill}" was found, so what it runs cannot be read` };
  }
  const worst = mostDemanding(judged.map((j) => j.class));
  return {
    class: worst,
    why: judged.find((j) => j.class === worst)!.why,
    ...(hooksFrom ? { hooksFrom } : {}),
    ...(forksAs ? { forksAs } : {}),
  };
}

/** Each file's class (and whether it changed since the prompt began) into `judged`; the first file that registers hooks, and the first that forks. */
async function judgeFiles(
  skill: string,
  files: readonly SkillFile[],
  since: number | undefined,
  judged: Array<{ class: SkillClass; why: string }>,
): Promise<{ hooksFrom?: string; forksAs?: string }> {
  let hooksFrom: string | undefined;
  let forksAs: string | undefined;
  for (const file of files) {
    const effect = skillEffect(file.text, { parseYaml: await parserFor(file.text), folder: file.folder });
    judged.push({ class: effect.class, why: describe(skill, file.file, effect) });
    if (effect.registersHooks) hooksFrom ??= file.file;
    if (effect.forks) forksAs ??= effect.agent ?? "general-purpose";
    const changed = changedSince(file.file, since);
    if (changed) judged.push({ class: "tool_call", why: changed });
  }
  return { ...(hooksFrom ? { hooksFrom } : {}), ...(forksAs ? { forksAs } : {}) };
}

/**
 * Claude Code may run the text of a skill as it read it when the prompt
 * began, not the file now: a file changed since then cannot say what will
 * run, so it counts as running shell (the stricter of the two texts, when
 * the earlier one is unknown). On a file system whose times are coarser than
 * the clock, a change in the prompt's first second can be missed.
 */
function changedSince(file: string, since: number | undefined): string | undefined {
  if (since === undefined) return undefined;
  try {
    const changed = statSync(file).mtimeMs;
    if (changed < since) return undefined;
    return `${file} changed after this prompt began (${new Date(changed).toISOString()}), and Claude Code may run the text it loaded before`;
  } catch {
    return undefined;
  }
}

/** How a gated scope judges a Skill call: neutral (today's path), or acting as tool_call or delegate (an unknown skill as tool_call). */
export function actsAsOf(verdict: SkillVerdict): ActsAs | undefined {
  if (verdict.class === "neutral") return undefined;
  return { action: verdict.class === "unknown" ? "tool_call" : verdict.class, why: verdict.why };
}
