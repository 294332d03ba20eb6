import { postToolUse } from "../post-tool-use.js";
import { PostToolUseInputSchema } from "../input.js";
import { runHook } from "../run.js";

void runHook("PostToolUse", PostToolUseInputSchema, postToolUse);
