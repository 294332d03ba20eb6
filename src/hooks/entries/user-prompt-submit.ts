// One hook per process: only its own handler is bundled (start-up time, SPEC §11).
import { UserPromptSubmitInputSchema } from "../input.js";
import { userPromptSubmit } from "../user-prompt-submit.js";
import { runHook } from "../run.js";

void runHook("UserPromptSubmit", UserPromptSubmitInputSchema, userPromptSubmit);
