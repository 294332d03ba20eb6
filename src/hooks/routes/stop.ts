import { StopInputSchema } from "../input.js";
import { stopHook } from "../stop.js";
import { route } from "./route.js";

export const stopRoute = route(StopInputSchema, (input, ctx) => stopHook(input, ctx, "Stop"));
