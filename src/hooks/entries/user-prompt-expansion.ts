import { runEntry } from "../../runtime.js";

void runEntry("UserPromptExpansion");
