// Preloaded into every node process of a test run (NODE_OPTIONS): holds the
// plugin's hook server back before it starts, so that Claude Code's first
// hook calls come while it is still connecting. Other processes go on at once.
if (/[\\/]dist[\\/]server\.js$/.test(process.argv[1] ?? "")) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.UTILITY_TEST_SERVER_DELAY_MS ?? 0));
}
