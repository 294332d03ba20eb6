import { readFileSync } from "node:fs";
import { errorLine } from "../state/file-error.js";
import { problemsFromIssues } from "../engine/problem.js";
import { appendJsonLine } from "../state/log-file.js";
import { dataDir, errorLogPath } from "../state/paths.js";
import { processContext, processStartedMs, type HookContext } from "./context.js";
import type { HookResult } from "./records.js";

export interface HookSchema<T> {
  safeParse(
    data: unknown,
    params?: { reportInput?: boolean },
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: ReadonlyArray<PropertyKey>; message: string; input?: unknown }[] } };
}

export interface HookIo {
  readStdin(): Buffer;
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
}

const processIo: HookIo = {
  readStdin: () => readFileSync(0),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

export class InputError extends Error {}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads, decodes and validates hook input; every failure is one sentence naming what is wrong. */
export function parseHookInput<T>(bytes: Buffer, schema: HookSchema<T>): T {
  if (bytes.length === 0) throw new InputError("hook input is empty; expected a JSON object on stdin");
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new InputError("hook input is not valid UTF-8");
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`hook input is not valid JSON (${(error as Error).message.split("\n")[0]})`);
  }
  return validateHookInput(data, schema);
}

/** Checks decoded hook input against its event's schema (the command entries and the warm server alike). */
export function validateHookInput<T>(data: unknown, schema: HookSchema<T>): T {
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new InputError("hook input is not a JSON object");
  const parsed = schema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw new InputError(`hook input: ${problemsFromIssues(parsed.error.issues)[0]!.message}`);
  return parsed.data;
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? errorLine(error);
}

/** One line in the data folder's error log, naming the process that wrote it (a hook server answers many calls); a folder that cannot take it is left alone (stderr says enough). */
export function recordError(dir: string, event: string, message: string): void {
  try {
    appendJsonLine(errorLogPath(dir), {
      v: 1,
      time: new Date().toISOString(),
      pid: process.pid,
      event,
      decision: "error",
      reason: message,
    });
  } catch {
    // the data folder itself is unusable: stderr already says what went wrong
  }
}

/** What a hook answers, whatever carries it: the decision, and one line of trouble (a command hook's stderr). */
export interface HookAnswer {
  output?: Record<string, unknown>;
  trouble?: string;
  /** The step log could not be written: for the error log, beside the trouble line. */
  logTrouble?: string;
}

/**
 * Runs a handler on validated input, with the step log guarded: a log that
 * cannot be written must not cost the decision (a refusal dropped is a gate
 * opened), so the trouble is noted and the answer stands. The command entries
 * and the warm server both answer through here.
 */
export async function answerHook<T>(
  event: string,
  handler: (input: T, ctx: HookContext) => Promise<HookResult>,
  input: T,
  ctx: HookContext,
): Promise<HookAnswer> {
  let logTrouble: string | undefined;
  let answered = false;
  const appendLog = ctx.appendLog;
  ctx.appendLog = (sessionId, record) => {
    try {
      appendLog(sessionId, record);
    } catch (error) {
      const trouble = `the step log cannot be written (${errorText(error)})`;
      // A line written after the answer (the warm server's `later`): the answer's trouble is gone, the error log keeps it.
      if (answered) recordError(ctx.dataDir, event, `utility ${event} hook: ${trouble}`);
      else logTrouble ??= trouble;
    }
  };
  const result = await handler(input, ctx);
  answered = true;
  const trouble = [result.stderr?.split("\n")[0], logTrouble && `utility ${event} hook: ${logTrouble}`].filter(Boolean).join("; ");
  return { ...(result.output ? { output: result.output } : {}), ...(trouble ? { trouble } : {}), ...(logTrouble ? { logTrouble } : {}) };
}

/**
 * The whole life of a hook process: parse, handle, print. It always exits 0
 * (Claude Code goes on); a refusal is a JSON decision on stdout, never an
 * exit code, and trouble is one line on stderr, never a stack trace.
 */
export async function runHook<T>(
  event: string,
  schema: HookSchema<T>,
  handler: (input: T, ctx: HookContext) => Promise<HookResult>,
  io: HookIo = processIo,
  /** How the handler's context is made from the environment; tests pass one with shorter waits. */
  makeContext: (env: HookIo["env"]) => HookContext = (env) => processContext(env, processStartedMs()),
): Promise<void> {
  try {
    const input = parseHookInput(io.readStdin(), schema);
    const answer = await answerHook(event, handler, input, makeContext(io.env));
    if (answer.output) io.stdout(`${JSON.stringify(answer.output)}\n`);
    if (answer.trouble) io.stderr(`${answer.trouble}\n`);
    if (answer.logTrouble) recordError(dataDir(io.env), event, answer.logTrouble);
  } catch (error) {
    const message = errorLine(error);
    io.stderr(`utility ${event} hook: ${message}\n`);
    recordError(dataDir(io.env), event, message);
  }
}
