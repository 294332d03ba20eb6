// One hook per process: only its own handler is bundled (start-up time, SPEC §11).
import { PreToolUseInputSchema } from "../input.js";
import { preToolUse } from "../pre-tool-use.js";
import { runHook } from "../run.js";

void runHook("PreToolUse", PreToolUseInputSchema, preToolUse);
