import { SessionEndInputSchema } from "../input.js";
import { sessionEnd } from "../session-end.js";
import { route } from "./route.js";

export const sessionEndRoute = route(SessionEndInputSchema, sessionEnd);
