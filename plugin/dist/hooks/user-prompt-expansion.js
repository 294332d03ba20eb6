"use strict";var r=require("./runtime.js");(0,r.runEntry)("UserPromptExpansion");
