import { preToolUseRoute } from "../routes/pre-tool-use.js";
import { runHook } from "../run.js";

void runHook("PreToolUse", preToolUseRoute.schema, preToolUseRoute.handler);
