#!/bin/sh
# The utility plugin's status line (README, "Status line"): prints the line
# the plugin's hook server keeps for this session, without starting Node.
# Claude Code runs it on every screen update with the session's JSON on stdin;
# the server rewrites <data folder>/statusline/<session>.txt after each hook
# answer (src/statusline/line-file.ts). When that line cannot be trusted it
# says why: the plugin disabled or not running in this session, its server
# gone, or the line older than the session's state.
#
# POSIX sh and its built-ins on the usual path (no Node, no cat, no sed); grep
# and ps only in the degraded cases. Exit 0, or 2 when stdin is not what
# Claude Code sends (the line says so).

# stdin: Claude Code's one JSON object (read whole, built-ins only).
input=
while IFS= read -r part || [ -n "$part" ]; do
  input="$input$part"
done

fail() {
  printf '%s\n' "utility · statusline: $1 (expected the object Claude Code hands a statusLine command)"
  printf '%s\n' "utility · statusline: $1 (expected the object Claude Code hands a statusLine command)" >&2
  exit 2
}

# The value of a top-level string field, by parameter expansion: `"key"`, spaces, `:`, spaces, `"value"`.
field() {
  case $input in *"\"$1\""*) ;; *) return 1 ;; esac
  rest=${input#*"\"$1\""}
  rest=${rest#"${rest%%[![:space:]]*}"}
  case $rest in :*) rest=${rest#:} ;; *) return 1 ;; esac
  rest=${rest#"${rest%%[![:space:]]*}"}
  case $rest in \"*) ;; *) return 1 ;; esac
  rest=${rest#\"}
  value=${rest%%\"*}
  return 0
}

trimmed=${input#"${input%%[![:space:]]*}"}
case $trimmed in \{*) ;; *) fail "stdin is not JSON" ;; esac
field session_id || fail "stdin has no session_id"
sid=$value
# A session id names a file only when it is safe (src/state/paths.ts, isSafeId).
[ -n "$sid" ] || fail "stdin has no session_id"
case $sid in
  .* | *..* | *[!A-Za-z0-9._-]* | __proto__)
    printf '%s\n' "utility · session id \"$sid\" is not a safe id (expected 1-128 letters, digits, '.', '-' or '_', no '..')"
    exit 0
    ;;
esac
if [ ${#sid} -gt 128 ]; then
  echo "utility · session id is not a safe id (expected 1-128 letters, digits, '.', '-' or '_', no '..')"
  exit 0
fi

# The data folders, as src/state/locate.ts looks for them (the command has no CLAUDE_PLUGIN_DATA).
base="${CLAUDE_CONFIG_DIR:-$HOME/.claude}/plugins/data"
if [ -n "$UTILITY_DATA_DIR" ]; then
  set -- "$UTILITY_DATA_DIR"
else
  set -- "${CLAUDE_PLUGIN_DATA:-$base/utility}"
  for d in "$base"/utility "$base"/utility-*; do
    [ -d "$d" ] && [ "$d" != "$1" ] && set -- "$@" "$d"
  done
fi

# Is the plugin turned off in Claude Code's settings? The most specific file that names it decides (local, project, user).
disabled_in=
disabled() {
  project=
  field project_dir && project=$value
  for f in ${project:+"$project/.claude/settings.local.json" "$project/.claude/settings.json"} "${CLAUDE_CONFIG_DIR:-$HOME/.claude}/settings.json"; do
    [ -f "$f" ] || continue
    if grep -q '"utility@[^"]*"[[:space:]]*:[[:space:]]*false' "$f" 2>/dev/null; then
      disabled_in=$f
      return 0
    fi
    grep -q '"utility@[^"]*"[[:space:]]*:[[:space:]]*true' "$f" 2>/dev/null && return 1
  done
  return 1
}

# A hook server alive for the Claude Code that runs this command (this shell's parent, or the parent's parent
# when Claude Code's shell forked): its marker, <data>/servers/<Claude Code pid>.json (src/state/server-marker.ts).
server_here() {
  pp=
  if [ -r "/proc/$PPID/stat" ]; then
    read -r stat < "/proc/$PPID/stat"
    stat=${stat##*) }
    pp=${stat#* }
    pp=${pp%% *}
  else
    pp=$(ps -o ppid= -p "$PPID" 2>/dev/null)
    pp=${pp#"${pp%%[! ]*}"}
  fi
  for claude in "$PPID" $pp; do
    for d in "$@"; do
      marker="$d/servers/$claude.json"
      [ -f "$marker" ] || continue
      m=
      read -r m < "$marker" || [ -n "$m" ] || continue
      p=${m#*\"pid\":}
      p=${p%%[!0-9]*}
      [ -n "$p" ] && kill -0 "$p" 2>/dev/null && return 0
    done
  done
  return 1
}

file=
dir=
for d in "$@"; do
  if [ -z "$file" ] && [ -f "$d/statusline/$sid.txt" ]; then
    file="$d/statusline/$sid.txt"
    dir=$d
  fi
done

if [ -z "$file" ]; then
  had=
  for d in "$@"; do
    if [ -f "$d/state/$sid.json" ] || [ -f "$d/sessions/$sid.jsonl" ]; then had=1; break; fi
  done
  if disabled; then
    printf '%s\n' "utility · off: the plugin is disabled (enabledPlugins in $disabled_in); nothing is checked or counted"
  elif server_here "$@"; then
    if [ -n "$had" ]; then
      echo "utility · no current line for this session yet: the next hook answer writes it"
    else
      echo "utility · no tool call seen yet in this session"
    fi
  else
    echo "utility · not running in this session: no hook server (the plugin is off, or still starting)"
  fi
  exit 0
fi

# The header: utility-statusline 1 <server pid> <Claude Code pid> <epoch seconds> <HH:MM:SS>, then the line.
{ IFS=' ' read -r magic version pid claude written clock && IFS= read -r line; } < "$file"
if [ "$magic" != "utility-statusline" ] || [ "$version" != 1 ] || [ -z "$line" ]; then
  printf '%s\n' "utility · the status line file $file is not one this script reads (a newer plugin wrote it?)"
  exit 0
fi
shown=${line#utility · }

if ! kill -0 "$pid" 2>/dev/null; then
  if disabled; then
    printf '%s\n' "utility · off: the plugin is disabled (enabledPlugins in $disabled_in); nothing is checked or counted"
  elif server_here "$@"; then
    printf '%s\n' "utility · stale (hook server restarted; line from $clock) · $shown"
  else
    printf '%s\n' "utility · hook server gone (pid $pid, line from $clock): Claude Code starts it again at the next hook call"
  fi
  exit 0
fi
if [ "$dir/state/$sid.json" -nt "$file" ] || [ "$dir/sessions/$sid.jsonl" -nt "$file" ]; then
  printf '%s\n' "utility · stale (state changed since $clock) · $shown"
  exit 0
fi
printf '%s\n' "$line"
