import { postToolUseRoute } from "../routes/post-tool-use.js";
import { runHook } from "../run.js";

void runHook("PostToolUse", postToolUseRoute.schema, postToolUseRoute.handler);
