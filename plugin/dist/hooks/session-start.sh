#!/bin/sh
# SessionStart (a command hook, once per session; dist/hooks/session-start.sh, copied from src/hooks by the build).
# Claude Code waits for it before the session's first model request, and a Node start costs about 100 ms of CPU
# on a start that competes for the same cores: so this POSIX sh script does only what must be known before that
# request, with shell builtins, and hands the hook input to the Node handler (dist/hooks/session-start.js,
# src/hooks/session-start.ts) only when that handler has work to do:
#   - the session is a fork ("source":"fork"): its state is marked forked before any other hook reads it;
#   - Claude Code's command line names --strict-mcp-config, or a managed settings file names MCP servers:
#     the plugin's hook server may be kept off, and the user must be told why every call will be refused
#     (the Node handler also writes the `utility` launcher then, src/hooks/launcher.ts).
# Otherwise it prints nothing and exits 0. The launcher's refresh and the data folder's mode are the hook
# server's work, once it has answered its first call (src/server/main.ts); in a session whose server never
# came, the late check's.
#
# `session-start.sh late` is the same script as an `async` SessionStart hook (Claude Code does not wait for it):
# when none of the causes above applies (those were told already), it waits up to 3 s for the hook server's
# marker (<data folder>/servers/<Claude Code's pid>.json, src/state/server-marker.ts) and, when none came,
# hands off to the Node check (UTILITY_SESSION_START=late), which tells the user and the model that every call
# will be refused until the server runs. Its output reaches the model with the next request after it ended.
input=$(cat)
here=${0%/*}
late=
[ "${1:-}" = late ] && late=1
# The input goes to Node on its stdin; the hook's answer is Node's output and exit code.
handoff() {
  if [ -n "$late" ]; then exit 0; fi
  printf '%s' "$input" | node "$here/session-start.js"
  exit $?
}
data=${CLAUDE_PLUGIN_DATA:-${UTILITY_DATA_DIR:-$HOME/.claude/plugins/data/utility}}

# A fork. Matching any JSON string "fork" over-matches at worst (the Node handler reads the input exactly).
if [ -z "$late" ]; then
  case $input in
  *'"fork"'*) handoff ;;
  esac
fi

# --strict-mcp-config on Claude Code's command line (Linux /proc; elsewhere the server's absence is told late).
case ${CLAUDE_PID:-x} in
*[!0-9]*) ;;
*)
  if [ -r "/proc/$CLAUDE_PID/cmdline" ]; then
    while IFS= read -r word || [ -n "$word" ]; do
      case $word in *--strict-mcp-config*) handoff ;; esac
    done <"/proc/$CLAUDE_PID/cmdline"
  fi
  ;;
esac

# Managed settings that name MCP servers (src/hooks/server-check.ts reads the same files).
for file in /etc/claude-code/managed-settings.json /etc/claude-code/managed-settings.d/*.json \
  "/Library/Application Support/ClaudeCode/managed-settings.json" "/Library/Application Support/ClaudeCode/managed-settings.d/"*.json; do
  if [ -f "$file" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case $line in *deniedMcpServers* | *allowedMcpServers* | *allowManagedMcpServersOnly*) handoff ;; esac
    done <"$file"
  fi
done

if [ -n "$late" ]; then
  case ${CLAUDE_PID:-x} in *[!0-9]*) exit 0 ;; esac
  tries=0
  while [ ! -f "$data/servers/$CLAUDE_PID.json" ]; do
    # 30 waits of 0.1 s: src/hooks/server-check.ts, SERVER_START_WAIT_MS.
    if [ "$tries" -ge 30 ]; then
      printf '%s' "$input" | UTILITY_SESSION_START=late node "$here/session-start.js"
      exit $?
    fi
    tries=$((tries + 1))
    sleep 0.1
  done
  exit 0
fi

exit 0
