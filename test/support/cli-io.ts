import type { CliIo } from "../../src/cli/io.js";
import { runCli } from "../../src/cli/run.js";

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function cli(argv: string[], options: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: () => options.stdin ?? "",
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
