import { StopInputSchema } from "../input.js";
import { stopHook } from "../stop.js";
import { route } from "./route.js";

export const subagentStopRoute = route(StopInputSchema, (input, ctx) => stopHook(input, ctx, "SubagentStop"));
