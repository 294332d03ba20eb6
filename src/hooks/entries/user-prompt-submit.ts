import { userPromptSubmit } from "../user-prompt-submit.js";
import { UserPromptSubmitInputSchema } from "../input.js";
import { runHook } from "../run.js";

void runHook("UserPromptSubmit", UserPromptSubmitInputSchema, userPromptSubmit);
