export * from "./line.js";
export * from "./line-bytes.js";
export * from "./source.js";
export * from "./scope.js";
export * from "./reverse-reader.js";
export * from "./forward-reader.js";
export * from "./queries.js";
export * from "./tool-uses.js";
