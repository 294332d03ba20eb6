import { PreToolUseInputSchema } from "../input.js";
import { preToolUse } from "../pre-tool-use.js";
import { route } from "./route.js";

export const preToolUseRoute = route(PreToolUseInputSchema, preToolUse);
