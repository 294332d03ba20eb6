// A folder laid out like ~/.claude/projects, for `utility replay`'s benchmark
// (scripts/bench/history.mjs) and its tests (test/replay/history-*.test.ts):
// several projects, each with sessions as Claude Code 2.1.328 writes them
// (docs/claude-code-facts.md): one line per content block sharing the
// message's id and usage, thinking blocks with signatures, tool results with
// their `toolUseResult` copy, hook and bash progress lines, file-history
// snapshots, queue operations; subagents in `<session>/subagents/agent-<id>.jsonl`
// (foreground and background, ended by a `<task-notification>`), a Workflow's
// under `subagents/workflows/<run>/`; background shells ended by a
// notification; compactions; exact repeats and calls that look like repeats
// but are not. Deterministic: a seed gives the same bytes.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prng } from "./transcript.mjs";

const WORDS =
  "const return function import export value config loader parser test fixture module path file read write error result status session task agent budget spend token cache index type interface schema check gate report action step scope subagent prompt line event hook state folder option number string array object promise async await throw catch finally".split(
    " ",
  );

/** Text made of source-like lines, built once: slices of it stand for file contents and outputs. */
function corpus(random, bytes) {
  const lines = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const words = [];
    const count = 3 + Math.floor(random() * 12);
    for (let i = 0; i < count; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
    const line = `${"  ".repeat(Math.floor(random() * 4))}${words.join(" ")};`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

export const PROJECT_DIRS = [
  "/home/dev/work/api-server",
  "/home/dev/work/web_app",
  "/home/dev/src/infra.tools",
  "/home/dev/notes",
  "/home/dev/work/mobile-client",
];

/** The folder Claude Code 2.1.328 names for a working folder (src/replay/projects.ts). */
export function folderName(cwd) {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

const PROMPTS = [
  "find out why the parser test fails and fix it",
  "refactor the config loader so it reads the new schema",
  "add a retry to the upload client with backoff",
  "review the open pull request and list what is risky",
  "write tests for the session store and make them pass",
  "update the README with the new install steps",
  "the build is slow, profile it and tell me where the time goes",
  "migrate the hooks to the new API and keep the old behaviour",
];

const MODELS = { main: "claude-opus-4-5-20251101", sub: "claude-sonnet-4-5-20250929", quick: "claude-haiku-4-5-20251001" };

class SessionWriter {
  constructor({ root, cwd, sessionId, random, text, clock }) {
    this.cwd = cwd;
    this.sessionId = sessionId;
    this.random = random;
    this.text = text;
    this.clock = clock;
    this.folder = join(root, folderName(cwd));
    this.file = join(this.folder, `${sessionId}.jsonl`);
    this.counter = 0;
    this.buffers = new Map();
    this.parents = new Map();
    this.bytes = 0;
    this.files = 1;
    mkdirSync(this.folder, { recursive: true });
    writeFileSync(this.file, "");
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  between(low, high) {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  id(prefix, length = 24) {
    this.counter += 1;
    const hex = (this.counter * 2654435761 + Math.floor(this.random() * 1e9)).toString(36);
    return `${prefix}${hex.padStart(length, "0").slice(-length)}`;
  }

  uuid() {
    const hex = [...Array(32)].map(() => Math.floor(this.random() * 16).toString(16)).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  slice(bytes) {
    const start = Math.floor(this.random() * Math.max(1, this.text.length - bytes));
    return this.text.slice(start, start + bytes);
  }

  tick(ms) {
    this.clock += ms;
    return new Date(this.clock).toISOString();
  }

  /** Appends a line to a file (the session file, or a subagent's), with the fields every line carries. */
  write(file, line, { agentId } = {}) {
    const uuid = this.uuid();
    const full = {
      parentUuid: this.parents.get(file) ?? null,
      isSidechain: agentId !== undefined,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: "2.1.328",
      gitBranch: "main",
      ...(agentId !== undefined ? { agentId } : {}),
      ...line,
      uuid,
      timestamp: this.tick(this.between(40, 2500)),
    };
    this.parents.set(file, uuid);
    const text = `${JSON.stringify(full)}\n`;
    this.buffers.set(file, (this.buffers.get(file) ?? "") + text);
    this.bytes += text.length;
    if (this.buffers.get(file).length > 1 << 20) this.flush(file);
  }

  flush(file) {
    const text = this.buffers.get(file);
    if (text) appendFileSync(file, text);
    this.buffers.set(file, "");
  }

  close() {
    for (const file of this.buffers.keys()) this.flush(file);
  }

  usage(context) {
    const creation = this.between(0, 3000);
    return {
      input_tokens: this.between(1, 12),
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: context,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: creation },
      output_tokens: this.between(20, 1500),
      service_tier: "standard",
    };
  }

  /** One assistant message, one line per block, each with the message's usage (output growing to its last line). */
  message(file, scope, blocks) {
    const id = this.id("msg_01", 22);
    const requestId = this.id("req_011", 22);
    const usage = this.usage(scope.context);
    scope.context += this.between(1000, 9000);
    blocks.forEach((block, index) => {
      const last = index === blocks.length - 1;
      const lineUsage = last ? usage : { ...usage, output_tokens: Math.floor((usage.output_tokens * (index + 1)) / blocks.length) };
      this.write(
        file,
        {
          message: {
            model: scope.model,
            id,
            type: "message",
            role: "assistant",
            content: [block],
            stop_reason: last && block.type !== "tool_use" ? "end_turn" : null,
            stop_sequence: null,
            usage: lineUsage,
          },
          requestId,
          type: "assistant",
        },
        scope,
      );
    });
  }

  thinking() {
    return {
      type: "thinking",
      thinking: this.slice(this.between(150, 1800)),
      signature: Buffer.from(this.slice(this.between(300, 900))).toString("base64"),
    };
  }

  result(file, scope, call, content, extra = {}) {
    this.write(
      file,
      {
        type: "user",
        message: {
          role: "user",
          content: [{ tool_use_id: call.id, type: "tool_result", content, ...(extra.isError ? { is_error: true } : {}) }],
        },
        toolUseResult: extra.toolUseResult ?? { stdout: content.slice(0, 4000), stderr: "", interrupted: false, isImage: false },
        sourceToolAssistantUUID: this.parents.get(file),
      },
      scope,
    );
  }

  hookProgress(file, scope, call) {
    this.write(
      file,
      {
        type: "progress",
        data: { type: "hook_progress", hookEvent: "PreToolUse", hookName: `PreToolUse:${call.name}`, command: "callback" },
        parentToolUseID: call.id,
        toolUseID: call.id,
      },
      scope,
    );
  }

  /** A leaf call's input and its result text (and the toolUseResult copy Claude Code keeps). */
  leafCall() {
    const roll = this.random();
    const path = `${this.cwd}/src/${this.pick(WORDS)}/${this.pick(WORDS)}.ts`;
    if (roll < 0.4) {
      const content = this.slice(this.between(800, 30000));
      return {
        name: "Read",
        input: { file_path: path },
        output: content,
        toolUseResult: {
          type: "text",
          file: { filePath: path, content, numLines: content.split("\n").length, startLine: 1, totalLines: 400 },
        },
      };
    }
    if (roll < 0.55) {
      const content = this.slice(this.between(100, 6000));
      return {
        name: "Grep",
        input: { pattern: this.pick(WORDS), path: `${this.cwd}/src`, output_mode: "content" },
        output: content,
        toolUseResult: { mode: "content", numFiles: 4, filenames: [], content, numLines: 20 },
      };
    }
    if (roll < 0.6)
      return { name: "Glob", input: { pattern: `src/**/*${this.pick(WORDS)}*.ts` }, output: this.slice(this.between(100, 1500)) };
    if (roll < 0.8)
      return {
        name: "Bash",
        input: { command: `npm test -- ${this.pick(WORDS)}`, description: "Run the tests" },
        output: this.slice(this.between(100, 12000)),
      };
    if (roll < 0.92) {
      const oldString = this.slice(this.between(40, 400));
      return {
        name: "Edit",
        input: { file_path: path, old_string: oldString, new_string: this.slice(this.between(40, 600)) },
        output: `The file ${path} has been updated.`,
      };
    }
    if (roll < 0.95)
      return {
        name: "Write",
        input: { file_path: path, content: this.slice(this.between(500, 8000)) },
        output: `File created successfully at: ${path}`,
      };
    return {
      name: "TodoWrite",
      input: { todos: [{ content: this.pick(PROMPTS), status: "in_progress", activeForm: "Working" }] },
      output: "Todos have been modified successfully.",
    };
  }

  /** Runs calls of one message: hooks, then results, in order. */
  runCalls(file, scope, calls) {
    for (const call of calls) this.hookProgress(file, scope, call);
    for (const call of calls) {
      if (call.name === "Bash" && this.random() < 0.3)
        this.write(
          file,
          {
            type: "progress",
            data: { type: "bash_progress", output: this.slice(200), fullOutput: this.slice(800), elapsedTimeSeconds: 3 },
            toolUseID: call.id,
            parentToolUseID: call.id,
          },
          scope,
        );
      this.result(file, scope, call, call.output, { toolUseResult: call.toolUseResult, isError: call.isError });
      scope.ran.push(call);
    }
  }

  /** A step of a scope: a message with thinking, maybe text, and its calls (read-only calls may go together). */
  step(file, scope, calls) {
    const blocks = [this.thinking()];
    if (this.random() < 0.5) blocks.push({ type: "text", text: this.slice(this.between(60, 500)) });
    for (const call of calls) {
      call.id ??= this.id("toolu_01", 22);
      blocks.push({ type: "tool_use", id: call.id, name: call.name, input: call.input, caller: { type: "direct" } });
    }
    this.message(file, scope, blocks);
    this.runCalls(file, scope, calls);
  }

  /** The next calls of a scope: now and then an exact repeat of its last read (nothing in between). */
  nextCalls(scope) {
    const last = scope.ran.at(-1);
    if (last && ["Read", "Grep", "Glob"].includes(last.name) && !last.isError && this.random() < 0.12) return [{ ...last, id: undefined }];
    const first = this.leafCall();
    if (first.name === "Read" && this.random() < 0.35) {
      const second = this.leafCall();
      if (second.name === "Read" && second.input.file_path !== first.input.file_path) return [first, second];
    }
    if (this.random() < 0.03) first.isError = true;
    return [first];
  }

  /** A subagent's own file: its prompt, its steps, its closing text. */
  subagent(folder, agentId, { prompt, model, steps }) {
    const file = join(folder, `agent-${agentId}.jsonl`);
    mkdirSync(folder, { recursive: true });
    this.files += 1;
    const scope = { agentId, model, context: this.between(8000, 20000), ran: [] };
    this.write(file, { type: "user", message: { role: "user", content: prompt } }, scope);
    for (let i = 0; i < steps; i++) this.step(file, scope, this.nextCalls(scope));
    this.message(file, scope, [{ type: "text", text: `Done. ${this.slice(this.between(200, 1500))}` }]);
    this.flush(file);
  }

  notification(taskId, toolUseId, summary) {
    const queued = { type: "queue-operation", operation: "dequeue", timestamp: this.tick(5), sessionId: this.sessionId };
    this.buffers.set(this.file, (this.buffers.get(this.file) ?? "") + `${JSON.stringify(queued)}\n`);
    this.write(this.file, {
      type: "user",
      message: {
        role: "user",
        content: `<task-notification>\n<task-id>${taskId}</task-id>\n<tool-use-id>${toolUseId}</tool-use-id>\n<status>completed</status>\n<summary>${summary}</summary>\n</task-notification>`,
      },
      origin: { kind: "task-notification" },
      promptSource: "system",
      turnOrigin: "task_notification",
    });
  }

  /** An Agent call of the main scope: foreground (its file, then its result), or background (launched, its file, a notification later). */
  agentCall(main, background) {
    const agentId = this.id("a", 16);
    const call = {
      id: this.id("toolu_01", 22),
      name: "Agent",
      input: {
        description: `${this.pick(["Explore", "Check", "Audit", "Find"])} the ${this.pick(WORDS)} ${this.pick(WORDS)}`,
        prompt: `${this.pick(PROMPTS)}. Report what you find.`,
        subagent_type: this.pick(["Explore", "general-purpose", "Plan"]),
        run_in_background: background,
      },
    };
    this.message(this.file, main, [
      this.thinking(),
      { type: "tool_use", id: call.id, name: "Agent", input: call.input, caller: { type: "direct" } },
    ]);
    this.hookProgress(this.file, main, call);
    const folder = join(this.folder, this.sessionId, "subagents");
    if (background) {
      this.result(this.file, main, call, `Async agent launched successfully.\nagentId: ${agentId} (internal ID - do not mention to user.)`);
      main.ran.push(call);
    }
    this.subagent(folder, agentId, { prompt: call.input.prompt, model: this.pick([MODELS.sub, MODELS.quick]), steps: this.between(2, 14) });
    if (!background) {
      this.result(this.file, main, call, `${this.slice(this.between(300, 3000))}\nagentId: ${agentId}`);
      main.ran.push(call);
    }
    return { agentId, call };
  }

  /** A Workflow: its agents each in `subagents/workflows/<run>/`. */
  workflowCall(main) {
    const run = this.id("wf_", 12);
    const call = { id: this.id("toolu_01", 22), name: "Workflow", input: { workflow: "review", args: this.pick(PROMPTS) } };
    this.message(this.file, main, [
      this.thinking(),
      { type: "tool_use", id: call.id, name: "Workflow", input: call.input, caller: { type: "direct" } },
    ]);
    this.hookProgress(this.file, main, call);
    const folder = join(this.folder, this.sessionId, "subagents", "workflows", run);
    for (let i = this.between(2, 4); i > 0; i--)
      this.subagent(folder, this.id("a", 16), {
        prompt: `Workflow step: ${this.pick(PROMPTS)}`,
        model: MODELS.sub,
        steps: this.between(1, 5),
      });
    this.result(this.file, main, call, `Workflow ${run} finished.`);
    main.ran.push(call);
  }

  backgroundShell(main) {
    const shell = this.id("b", 8);
    const call = {
      id: this.id("toolu_01", 22),
      name: "Bash",
      input: { command: "npm run dev", description: "Start the dev server", run_in_background: true },
      output: `Command running in background with ID: ${shell}`,
    };
    this.step(this.file, main, [call]);
    return { shell, call };
  }

  prompt(text) {
    this.write(this.file, {
      type: "user",
      message: { role: "user", content: text },
      promptId: this.uuid(),
      origin: { kind: "human" },
      promptSource: "typed",
      turnOrigin: "human",
      permissionMode: "default",
    });
  }

  /** A call the user refused at Claude Code's permission prompt: it never ran. */
  rejected(main) {
    const call = { id: this.id("toolu_01", 22), name: "Bash", input: { command: "rm -rf build", description: "Clean the build" } };
    this.message(this.file, main, [
      this.thinking(),
      { type: "tool_use", id: call.id, name: "Bash", input: call.input, caller: { type: "direct" } },
    ]);
    this.write(this.file, {
      type: "user",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            content:
              "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
            is_error: true,
            tool_use_id: call.id,
          },
        ],
      },
      toolUseResult: "User rejected tool use",
      toolDenialKind: "user-rejected",
    });
    main.rejected = true;
  }

  /** The context is full: Claude Code compacts it (its boundary line and the summary), and the context starts small again. */
  compaction(main) {
    main.context = this.between(15000, 30000);
    this.write(this.file, {
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      level: "info",
      compactMetadata: { trigger: "auto", preTokens: 160000 },
    });
    this.write(this.file, {
      type: "user",
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: {
        role: "user",
        content: `This session is being continued from a previous conversation. Summary:\n${this.slice(this.between(3000, 9000))}`,
      },
    });
  }

  /** One task: a prompt, steps with subagents and background jobs now and then, a closing answer. */
  task(targetBytes) {
    // The main conversation's context goes on from the task before (a session is one conversation).
    const main = { model: MODELS.main, context: (this.context ??= this.between(15000, 40000)), ran: [] };
    this.write(this.file, {
      type: "file-history-snapshot",
      messageId: this.uuid(),
      snapshot: { messageId: this.uuid(), trackedFileBackups: {}, timestamp: new Date(this.clock).toISOString() },
      isSnapshotUpdate: false,
    });
    this.prompt(this.pick(PROMPTS));
    const until = this.bytes + targetBytes;
    const pending = [];
    while (this.bytes < until) {
      const roll = this.random();
      if (roll < 0.04) pending.push(this.agentCall(main, this.random() < 0.5));
      else if (roll < 0.045) this.workflowCall(main);
      else if (roll < 0.06) pending.push(this.backgroundShell(main));
      else if (main.context > 120_000) this.compaction(main);
      else if (roll < 0.07) {
        // The user rejects a call: Claude Code writes the refusal and the turn ends there, waiting for the user.
        this.rejected(main);
        break;
      } else this.step(this.file, main, this.nextCalls(main));
      // A background job ends some steps later: its notification is written, and the model answers it.
      if (pending.length > 0 && this.random() < 0.25) {
        const job = pending.shift();
        if (job.shell) this.notification(job.shell, job.call.id, `Background command "Start the dev server" completed (exit code 0)`);
        else if (job.call.input.run_in_background)
          this.notification(job.agentId, job.call.id, `Agent "${job.call.input.description}" completed`);
      }
    }
    for (const job of pending) {
      if (job.shell) this.notification(job.shell, job.call.id, "Background command completed (exit code 0)");
      else if (job.call.input.run_in_background) this.notification(job.agentId, job.call.id, "Agent completed");
    }
    if (!main.rejected) this.message(this.file, main, [{ type: "text", text: `All done. ${this.slice(this.between(200, 2000))}` }]);
    this.context = main.context;
    this.write(this.file, { type: "system", subtype: "turn_duration", durationMs: this.between(5000, 900000), isMeta: false });
  }
}

/**
 * Writes a projects folder of about `bytes` bytes under `root`: sessions of
 * PROJECT_DIRS' projects, mostly small, some large, a few very large (the
 * outliers a budget is for). Returns what it wrote.
 */
export function writeProjectsFolder(root, { bytes = 120e6, seed = 1, start = Date.UTC(2026, 10, 1, 8) } = {}) {
  const random = prng(seed);
  const text = corpus(random, 2_000_000);
  let clock = start;
  let written = 0;
  let files = 0;
  const sessions = [];
  for (let n = 0; written < bytes; n++) {
    const cwd = PROJECT_DIRS[n % PROJECT_DIRS.length];
    const roll = random();
    // Most sessions are small; one in ten large; one in forty a runaway.
    const size = Math.min(
      bytes - written + 50_000,
      roll < 0.025 ? 8e6 + random() * 12e6 : roll < 0.12 ? 1e6 + random() * 3e6 : 60_000 + random() * 600_000,
    );
    const sessionId = [8, 4, 4, 4, 12].map((len) => [...Array(len)].map(() => Math.floor(random() * 16).toString(16)).join("")).join("-");
    const writer = new SessionWriter({ root, cwd, sessionId, random, text, clock });
    const tasks = Math.max(1, Math.round(1 + random() * 4));
    for (let t = 0; t < tasks; t++) writer.task((size / tasks) * (0.3 + random() * 1.4));
    writer.close();
    clock = writer.clock + 3_600_000 * (1 + random() * 10);
    written += writer.bytes;
    files += writer.files;
    sessions.push({ project: folderName(cwd), sessionId, bytes: writer.bytes, files: writer.files });
  }
  return { root, bytes: written, files, sessions };
}
