import { PostToolUseInputSchema } from "../input.js";
import { postToolUse } from "../post-tool-use.js";
import { route } from "./route.js";

export const postToolUseRoute = route(PostToolUseInputSchema, postToolUse);
