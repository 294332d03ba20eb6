/**
 * Everything the plugin runs during a session, in one bundle
 * (`dist/hooks/runtime.js`): a command hook's whole life for one event
 * (`dist/hooks/<event>.js` is a one-line call of `runEntry`), and the hook
 * server (`dist/server.js` calls `serve`). One copy of the handlers in the
 * installed plugin, whichever way a hook comes.
 */
import { eventSpec, type HookEvent } from "../hooks/events.js";
import { runHook } from "../hooks/run.js";

export { serve } from "./main.js";

/** A command hook: read stdin, answer one event, print. */
export function runEntry(event: HookEvent): Promise<void> {
  const { schema, handler } = eventSpec(event);
  return runHook(event, schema, handler);
}
