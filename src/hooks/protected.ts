import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { protectedReason, writeTargets } from "../engine/protected.js";
import type { PreToolUseInput } from "./input.js";
import type { ScopeRef } from "./scope.js";

/** A path with its deepest existing folder resolved through symbolic links: a link that leads into a guarded place is found. */
function realTarget(path: string): string {
  try {
    return realpathSync(path); // the file itself may be a link
  } catch {
    // not there yet: resolve the folders it would be written in
  }
  let folder = dirname(path);
  const rest = [basename(path)];
  for (;;) {
    try {
      return join(realpathSync(folder), ...rest.reverse());
    } catch {
      const up = dirname(folder);
      if (up === folder) return path;
      rest.push(basename(folder));
      folder = up;
    }
  }
}

/**
 * Why this writing call is aimed at the gate's own records (SPEC §6), or
 * undefined: its target, as written and through any links, lies in the data
 * folder or is a transcript of the session's folder.
 */
export function protectedTargetOf(input: PreToolUseInput, ref: ScopeRef, dataDir: string): string | undefined {
  const targets = writeTargets(input.tool_name, input.tool_input);
  if (targets.length === 0) return undefined;
  const places = {
    dataDir: realTarget(resolve(dataDir)),
    transcriptDir: realTarget(dirname(resolve(input.transcript_path || ref.transcript))),
  };
  const lexical = { dataDir: resolve(dataDir), transcriptDir: dirname(resolve(input.transcript_path || ref.transcript)) };
  for (const target of targets) {
    const absolute = isAbsolute(target) ? resolve(target) : resolve(input.cwd ?? process.cwd(), target);
    const reason = protectedReason(absolute, lexical) ?? protectedReason(realTarget(absolute), places);
    if (reason) return reason;
  }
  return undefined;
}
