/**
 * The hook server's side of the live OTLP export (SPEC §17): the settings'
 * check, the live export (./live.ts), and a sink that queues what it is
 * given until the SDK bundle has loaded (./load.ts, by dynamic import, begun
 * with the first records). With otlp_endpoint not set the server makes none,
 * and the bundle is never read.
 */
import { parseOtlpConfig } from "../optin/otlp-config.js";
import { loadStartSink } from "./load.js";
import { liveExport, type LiveExport, type LiveOptions } from "./live.js";
import type { OtlpRecord, OtlpSink, OtlpTarget, SinkOptions, StartSink } from "./types.js";

type Env = Record<string, string | undefined>;

/** Records kept while the SDK loads; past it they are dropped and counted. */
const MAX_WAITING = 2048;

/** A sink that loads the SDK with its first records and hands them over once it has. */
export function deferredSink(load: () => Promise<StartSink>, trouble: (message: string) => void): StartSink {
  return (target: OtlpTarget, options?: SinkOptions): OtlpSink => {
    let real: OtlpSink | undefined;
    let loading: Promise<void> | undefined;
    const waiting: OtlpRecord[] = [];
    let dropped = 0;
    return {
      emit(records) {
        if (real) return real.emit(records);
        const room = Math.max(0, MAX_WAITING - waiting.length);
        waiting.push(...records.slice(0, room));
        dropped += records.length - Math.min(room, records.length);
        loading ??= load().then(
          (start) => {
            real = start(target, options);
            real.emit(waiting.splice(0));
          },
          (error: unknown) => trouble(`OTLP export: the OpenTelemetry SDK did not load (${String(error)})`),
        );
      },
      counts() {
        const c = real?.counts() ?? { sent: 0, dropped: 0, queued: 0 };
        return { ...c, dropped: c.dropped + dropped, queued: c.queued + waiting.length };
      },
      unsent: () => real?.unsent() ?? [...waiting],
      async flush(ms) {
        await loading;
        await real?.flush(ms);
      },
    };
  };
}

/** The live export when otlp_endpoint is set and the settings are valid; undefined otherwise (trouble says why). */
export function liveShim(env: Env, options: Omit<LiveOptions, "startSink">, load = loadStartSink): LiveExport | undefined {
  const { target, problems } = parseOtlpConfig(env);
  if (problems.length > 0) options.trouble(`OTLP export is off: ${problems.join("; ")}`);
  if (!target) return undefined;
  return liveExport(env, target, { ...options, startSink: deferredSink(load, options.trouble) });
}
