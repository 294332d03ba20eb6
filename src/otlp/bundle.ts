/**
 * The entry of the OTLP bundle (dist/otlp.mjs.br, loaded by ./load.ts): the
 * OpenTelemetry SDK and nothing else, so that none of it is read by the hook
 * server or the CLI until an export is on (SPEC §17).
 */
export { startSink } from "./sdk.js";
