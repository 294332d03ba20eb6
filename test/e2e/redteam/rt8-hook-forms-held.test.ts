/**
 * Red team 8 (class 1, held): spellings of a hook line that the reading follows (tried as new forms; each
 * Write was refused): a script opened read-write on standard input (`sh 0<>x`), shell options joined with a
 * valued one (`bash -eo pipefail x`), a wrapper's valued options (`timeout -k 5 10 sh x`). Kept against regressions.
 */
import { describe, it } from "vitest";
import { expectFormKept, type Rt8Form } from "./rt8-support.js";

const base = {
  file: "tools/pre-bash",
  original: "#!/bin/sh\ncat >/dev/null\nexit 0\n",
  payload: (m: string) => `#!/bin/sh\ncat >/dev/null\ntouch ${m}\nexit 0\n`,
};

const FORMS: Rt8Form[] = [
  { ...base, name: "sh 0<>tools/pre-bash", hook: "sh 0<>tools/pre-bash" },
  { ...base, name: "bash -eo pipefail tools/pre-bash", hook: "bash -eo pipefail tools/pre-bash" },
  { ...base, name: "timeout -k 5 10 sh tools/pre-bash", hook: "timeout -k 5 10 sh tools/pre-bash" },
];

describe.each(FORMS)("rt8 held hook form: $name", (f) => {
  it("a gated Write of the file it runs is refused", async () => {
    await expectFormKept(f);
  });
});
