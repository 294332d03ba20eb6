import { SubagentStartInputSchema } from "../input.js";
import { subagentStart } from "../subagent-start.js";
import { route } from "./route.js";

export const subagentStartRoute = route(SubagentStartInputSchema, subagentStart);
