/**
 * plugin.json with its generated parts put in: `userConfig` and the hook
 * server's env block, from the one list of settings (./options.ts). The rest
 * (name, version, description, the server's command) is written by hand.
 */
import { renderServerEnv, renderUserConfig } from "./options.js";

interface Manifest {
  userConfig?: unknown;
  mcpServers?: { hooks?: { env?: unknown } & Record<string, unknown> } & Record<string, unknown>;
  [key: string]: unknown;
}

export function withGeneratedSettings(manifest: Manifest): Manifest {
  const hooks = { ...manifest.mcpServers?.hooks, env: renderServerEnv() };
  return { ...manifest, userConfig: renderUserConfig(), mcpServers: { ...manifest.mcpServers, hooks } };
}

/** The file's text with its generated parts current. */
export function manifestText(current: string): string {
  return `${JSON.stringify(withGeneratedSettings(JSON.parse(current) as Manifest), null, 2)}\n`;
}
