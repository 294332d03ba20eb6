import { preCompactRoute } from "../routes/pre-compact.js";
import { runHook } from "../run.js";

void runHook("PreCompact", preCompactRoute.schema, preCompactRoute.handler);
