import { SessionStartInputSchema } from "../input.js";
import { sessionStart } from "../session-start.js";
import { route } from "./route.js";

export const sessionStartRoute = route(SessionStartInputSchema, sessionStart);
