/** The environment variable Claude Code sets for a plugin option (non-alphanumerics become `_`, then upper case). */
export function optionEnvName(option: string): string {
  return `CLAUDE_PLUGIN_OPTION_${option.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase()}`;
}
