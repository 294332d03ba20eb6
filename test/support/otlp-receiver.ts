/**
 * A loopback OTLP/HTTP logs receiver for the tests: it keeps every request
 * body and decodes it with the official OTLP protobuf definitions (the
 * protobufjs root that @opentelemetry/otlp-transformer 0.52.1 ships, the dev
 * alias `otlp-transformer-proto`), never a hand-written shape. Its mode says
 * how it answers: `ok` (200), `down` (503, which the SDK retries), `silent`
 * (reads the request, never answers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const root = require("otlp-transformer-proto/build/src/generated/root") as {
  opentelemetry: { proto: { collector: { logs: { v1: { ExportLogsServiceRequest: ProtoType } } } } };
};
const REQUEST = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;

type AnyValue = { stringValue?: string; intValue?: string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value?: AnyValue };

export interface ReceivedRecord {
  eventName: string;
  body: string;
  timeUnixNano: string;
  severityNumber: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  scope: string;
}

export type ReceiverMode = "ok" | "down" | "silent";

export interface Receiver {
  url: string;
  mode: ReceiverMode;
  /** Requests as they came: path, content type, headers, body. */
  requests: Array<{ path: string; contentType: string; headers: IncomingMessage["headers"]; body: Buffer; answered: number; at: number }>;
  /** The records of the requests answered 200, decoded. */
  accepted(): ReceivedRecord[];
  stop(): Promise<void>;
}

function valueOf(v: AnyValue | undefined): string | number | boolean {
  if (!v) return "";
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return "";
}

const pairs = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

interface Decoded {
  resourceLogs?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeLogs?: Array<{
      scope?: { name?: string };
      logRecords?: Array<{ eventName?: string; body?: AnyValue; timeUnixNano?: string; severityNumber?: number; attributes?: KeyValue[] }>;
    }>;
  }>;
}

/** An OTLP/HTTP protobuf body's log records, flattened. */
export function decodeLogs(body: Uint8Array): ReceivedRecord[] {
  const message = REQUEST.toObject(REQUEST.decode(body), { longs: String, enums: Number, defaults: false }) as Decoded;
  return (message.resourceLogs ?? []).flatMap((rl) =>
    (rl.scopeLogs ?? []).flatMap((sl) =>
      (sl.logRecords ?? []).map((r) => ({
        // OTLP 1.x definitions of 0.52.1 predate the LogRecord's event_name field: the `event.name` attribute says it too.
        eventName: r.eventName ?? String(pairs(r.attributes)["event.name"] ?? ""),
        body: String(valueOf(r.body)),
        timeUnixNano: r.timeUnixNano ?? "0",
        severityNumber: r.severityNumber ?? 0,
        attributes: pairs(r.attributes),
        resource: pairs(rl.resource?.attributes),
        scope: sl.scope?.name ?? "",
      })),
    ),
  );
}

export async function startReceiver(mode: ReceiverMode = "ok"): Promise<Receiver> {
  const open = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: "",
    mode,
    requests: [],
    accepted: () => receiver.requests.filter((r) => r.answered === 200).flatMap((r) => decodeLogs(r.body)),
    stop: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = {
        path: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        answered: 0,
        at: Date.now(),
      };
      receiver.requests.push(entry);
      if (receiver.mode === "silent") return void open.add(res);
      entry.answered = receiver.mode === "ok" ? 200 : 503;
      res.writeHead(entry.answered, { "content-type": "application/x-protobuf" });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  receiver.url = `http://127.0.0.1:${address.port}`;
  return receiver;
}
