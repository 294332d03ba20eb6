// The SDK sink (src/otlp/sdk.ts) against a loopback receiver: records decoded with the official OTLP definitions,
// a batch refused during an outage sent again once the endpoint is back, a full queue dropped and counted, and
// emit never waiting for an endpoint that never answers.
import { afterEach, describe, expect, it } from "vitest";
import { startSink } from "../../src/otlp/sdk.js";
import { startReceiver, type Receiver } from "../support/otlp-receiver.js";
import type { OtlpRecord } from "../../src/otlp/types.js";

const record = (n: number): OtlpRecord => ({
  eventName: "utility.step",
  timeMs: 1_700_000_000_000 + n,
  body: `step ${n}`,
  attributes: { "event.name": "utility.step", "session.id": "s1", "utility.record_id": `r${n}` },
});

let receiver: Receiver | undefined;
afterEach(async () => receiver?.stop());

const target = (r: Receiver) => ({
  endpoint: r.url,
  protocol: "http/protobuf" as const,
  headers: { "x-k": "v" },
  resource: { "service.name": "utility" },
});

describe("the SDK sink", () => {
  it("sends records with their attributes and resource, and counts them", async () => {
    receiver = await startReceiver("ok");
    const sink = startSink(target(receiver), { delayMs: 50 });
    sink.emit([record(1), record(2)]);
    await sink.flush(5_000);
    const got = receiver.accepted();
    expect(got.map((r) => r.attributes["utility.record_id"]).sort()).toEqual(["r1", "r2"]);
    expect(got[0]!.resource["service.name"]).toBe("utility");
    expect(receiver.requests[0]!.headers["x-k"]).toBe("v");
    expect(sink.counts()).toMatchObject({ sent: 2, dropped: 0, queued: 0 });
    expect(sink.unsent()).toEqual([]);
  });

  it("keeps a batch refused through an outage and sends it once when the endpoint is back", async () => {
    receiver = await startReceiver("down");
    const sink = startSink(target(receiver), { delayMs: 50, timeoutMs: 300 });
    sink.emit([record(1), record(2), record(3)]);
    await sink.flush(2_000);
    expect(sink.counts()).toMatchObject({ sent: 0, dropped: 0, queued: 3 });
    expect(sink.unsent()).toHaveLength(3);
    receiver.mode = "ok";
    sink.emit([record(4)]);
    await sink.flush(5_000);
    const ids = receiver.accepted().map((r) => r.attributes["utility.record_id"]);
    expect(ids.sort()).toEqual(["r1", "r2", "r3", "r4"]);
    expect(sink.counts()).toMatchObject({ sent: 4, dropped: 0, queued: 0 });
  });

  it("drops and counts past its bound, and never waits on a listener that does not answer", async () => {
    receiver = await startReceiver("silent");
    const sink = startSink(target(receiver), { delayMs: 50, timeoutMs: 500, maxQueue: 3 });
    const started = performance.now();
    sink.emit([1, 2, 3, 4, 5].map(record));
    expect(performance.now() - started).toBeLessThan(50);
    expect(sink.counts()).toMatchObject({ sent: 0, dropped: 2, queued: 3 });
  });
});
