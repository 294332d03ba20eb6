"use strict";var n=require("./runtime.js");(0,n.runEntry)("SessionEnd");
