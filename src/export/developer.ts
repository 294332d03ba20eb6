// Who ran a session, as the exports name them by default (docs/team.md).
import { hostname, userInfo } from "node:os";

/** `user@host`, the default developer name. */
export function defaultDeveloper(env: Record<string, string | undefined>): string {
  let user = env.USER || env.LOGNAME || "";
  try {
    user ||= userInfo().username;
  } catch {
    user ||= "unknown";
  }
  return `${user}@${hostname()}`;
}
