import { postToolUse } from "../post-tool-use.js";
import { PostToolUseInputSchema } from "../input.js";
import { runHook } from "../run.js";

await runHook("PostToolUse", PostToolUseInputSchema, postToolUse);
