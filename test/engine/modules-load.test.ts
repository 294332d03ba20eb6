import { describe } from "vitest";
import { eachModuleLoads } from "../support/module-load.js";

describe("every engine module loads", () => eachModuleLoads("engine"));
