import { preToolUse } from "../pre-tool-use.js";
import { PreToolUseInputSchema } from "../input.js";
import { runHook } from "../run.js";

void runHook("PreToolUse", PreToolUseInputSchema, preToolUse);
