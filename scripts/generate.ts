// Writes the files generated from the source's registries: plugin/hooks/hooks.json
// (src/hooks/events.ts) and, in plugin/.claude-plugin/plugin.json, the settings
// (`userConfig`) and the hook server's env block (src/optin/options.ts).
// `npm run build` runs it; test/plugin/generated.test.ts fails when a committed
// file says anything else. Written as the repository's formatter keeps JSON.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { hooksJsonText } from "../src/hooks/hooks-json.js";
import { manifestText } from "../src/optin/manifest.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function write(file: string, text: string): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(text, { ...options, filepath: file }));
}

await write(join(root, "plugin", "hooks", "hooks.json"), hooksJsonText());
const manifest = join(root, "plugin", ".claude-plugin", "plugin.json");
await write(manifest, manifestText(readFileSync(manifest, "utf8")));
