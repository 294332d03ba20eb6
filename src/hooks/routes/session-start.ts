import { SessionStartInputSchema } from "../input.js";
import { sessionStart } from "../../server/sentinel.js";
import { route } from "./route.js";

export const sessionStartRoute = route(SessionStartInputSchema, sessionStart);
