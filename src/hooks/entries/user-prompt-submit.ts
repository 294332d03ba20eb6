import { userPromptSubmitRoute } from "../routes/user-prompt-submit.js";
import { runHook } from "../run.js";

void runHook("UserPromptSubmit", userPromptSubmitRoute.schema, userPromptSubmitRoute.handler);
