import { UserPromptExpansionInputSchema } from "../input.js";
import { userPromptExpansion } from "../user-prompt-expansion.js";
import { route } from "./route.js";

export const userPromptExpansionRoute = route(UserPromptExpansionInputSchema, userPromptExpansion);
