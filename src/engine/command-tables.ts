// The words the reading of a command line (./command-files.ts) knows by name:
// shell syntax, wrappers, printers, variables that load code. Data only.

/** Words that open or close a compound command, or negate one: the command follows them. */
export const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "function",
  "coproc",
]);

/** Commands that run the command after them (their own options first). */
export const WRAPPERS = new Set([
  "exec",
  "command",
  "nohup",
  "time",
  "nice",
  "sudo",
  "xargs",
  "builtin",
  "stdbuf",
  "timeout",
  "busybox",
  "setsid",
  "ionice",
  "chrt",
  "taskset",
  "doas",
]);

/** Options of a wrapper that take the next word as their value (`nice -n 5`, `sudo -u bob`, `timeout -s KILL`, `exec -a name`). */
export const WRAPPER_VALUED = new Set(["-n", "-u", "-g", "-s", "-k", "-I", "-L", "-P", "-d", "-a", "-c"]);

/** Names of script files: one on the line is run somewhere (`pytest tests/test_a.py`). */
export const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|ps1|lua|tcl)$/i;

/** Programs that print a file: inside a command substitution, what they print may be run (`eval "$(cat f)"`). */
export const PRINTERS = new Set(["cat", "head", "tail", "base64", "zcat", "gunzip", "xxd", "tac", "sed", "awk", "tr"]);

/** Variables that name files or folders a program loads code from before it runs what it was asked to. */
export const LOADS_FROM = new Set([
  "BASH_ENV",
  "ENV",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "NODE_PATH",
  "PERL5LIB",
  "PERLLIB",
  "RUBYLIB",
  "LD_PRELOAD",
  "ZDOTDIR",
]);

/** Options of `env` that take the next word as their value. */
export const ENV_VALUED = new Set(["-C", "--chdir", "-u", "--unset"]);
