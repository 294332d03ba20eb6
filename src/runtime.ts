/**
 * Everything the plugin runs during a session, in one bundle
 * (`dist/hooks/runtime.js`): a command hook's whole life for one event
 * (`dist/hooks/<event>.js` is a one-line call of `runEntry`), and the hook
 * server (`dist/server.js` calls `serve`). One copy of the handlers in the
 * installed plugin, whichever way a hook comes.
 */
import { HOOK_ROUTES, type HookEvent, type HookRoute } from "./hooks/routes/index.js";
import { runHook } from "./hooks/run.js";

export { serve } from "./server/main.js";

/** A command hook: read stdin, answer one event, print. */
export function runEntry(event: HookEvent): Promise<void> {
  const route = HOOK_ROUTES[event] as HookRoute<unknown>;
  return runHook(event, route.schema, route.handler);
}
