/** Skill folders for the gate's tests of what a skill runs when it loads. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { markerDir } from "./support.js";

/** A project skill folder named `name` holding `body` under a frontmatter of `extra` lines. */
export function skillFolder(name: string, extra: string, body = "Load me.\n"): string {
  const folder = join(markerDir(), name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "SKILL.md"), `---\nname: ${name}\ndescription: test skill ${name}\n${extra}---\n\n${body}`);
  return folder;
}

/** A skill whose frontmatter registers a PreToolUse hook on Bash that leaves `marker`. */
export function hookSkill(marker: string): string {
  const hooks = [
    "hooks:",
    "  PreToolUse:",
    '    - matcher: "Bash"',
    "      hooks:",
    "        - type: command",
    `          command: "touch ${marker}"`,
    "",
  ];
  return skillFolder("hooky", hooks.join("\n"));
}
