import { userPromptSubmit } from "../user-prompt-submit.js";
import { UserPromptSubmitInputSchema } from "../input.js";
import { runHook } from "../run.js";

await runHook("UserPromptSubmit", UserPromptSubmitInputSchema, userPromptSubmit);
