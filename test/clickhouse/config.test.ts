import { describe, expect, it } from "vitest";
import { clickHouseHost, parseClickHouseConfig } from "../../src/optin/clickhouse-config.js";
import { USER_OPTIONS } from "../../src/optin/options.js";
import { clickHouseProgressLine } from "../../src/clickhouse/progress.js";
import { shownValue } from "../../src/optin/managed.js";

const NAME = "CLAUDE_PLUGIN_OPTION_CLICKHOUSE_URL";

describe("the clickhouse_url setting", () => {
  it("is declared once, as a sensitive value", () => {
    expect(USER_OPTIONS.find((o) => o.option === "clickhouse_url")).toMatchObject({ type: "string", sensitive: true });
  });

  it("is off when unset or blank, on with an http(s) URL", () => {
    expect(parseClickHouseConfig({})).toEqual({ problems: [] });
    expect(parseClickHouseConfig({ [NAME]: "  " })).toEqual({ problems: [] });
    expect(parseClickHouseConfig({ [NAME]: " http://u:p@ch:8123/?database=team " })).toEqual({
      url: "http://u:p@ch:8123/?database=team",
      problems: [],
    });
  });

  it("is off with a problem that never shows the value when it is not an http(s) URL", () => {
    const { url, problems } = parseClickHouseConfig({ [NAME]: "tcp://u:secret@ch:9000" });
    expect(url).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/clickhouse_url is not an http/);
    expect(problems[0]).not.toContain("secret");
  });

  it("status names the host, never the user or password", () => {
    expect(clickHouseHost("http://u:secret@ch.example:8123/?database=team")).toBe("ch.example:8123");
    const line = clickHouseProgressLine({
      offset: 10,
      promptKey: "",
      tasks: {},
      sent: 7,
      waiting: 2,
      failed: 1,
      lastError: "cannot reach ClickHouse at http://ch.example:8123: ECONNREFUSED",
      host: "ch.example:8123",
    });
    expect(line).toBe(
      "ClickHouse export to ch.example:8123: 7 rows sent, 2 records waiting, 1 failed sends; last error: cannot reach ClickHouse at http://ch.example:8123: ECONNREFUSED",
    );
  });
});

describe("an organization's options in status", () => {
  it("are named without their values when sensitive (clickhouse_url, otlp_headers)", () => {
    expect(shownValue("clickhouse_url", "http://u:secret@ch:8123")).toBe("(set, not shown)");
    expect(shownValue("otlp_headers", "Authorization=Bearer%20x")).toBe("(set, not shown)");
    expect(shownValue("max_tool_calls", " 2 ")).toBe("2");
  });
});
