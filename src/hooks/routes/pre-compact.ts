import { PreCompactInputSchema } from "../input.js";
import { preCompact } from "../pre-compact.js";
import { route } from "./route.js";

export const preCompactRoute = route(PreCompactInputSchema, preCompact);
