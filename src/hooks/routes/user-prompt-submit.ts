import { UserPromptSubmitInputSchema } from "../input.js";
import { userPromptSubmit } from "../user-prompt-submit.js";
import { route } from "./route.js";

export const userPromptSubmitRoute = route(UserPromptSubmitInputSchema, userPromptSubmit);
