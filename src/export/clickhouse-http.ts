// ClickHouse over its HTTP interface (POST a query, the body after it): the
// one place `utility export` and the live export (src/clickhouse/) talk to the
// server. Node's fetch, no client library, no zod (the live export loads it on
// demand: src/clickhouse/load.ts); the URL's check is ./clickhouse-url.ts.
export class ClickHouseError extends Error {
  override readonly name = "ClickHouseError";
}

export interface ClickHouse {
  /** Runs a statement; `body` follows it (an INSERT's rows). Resolves to the response text. */
  run(sql: string, body?: string): Promise<string>;
}

/** A client for one server: the URL's user and password, if any, go as ClickHouse's headers, not in the query string. */
export function clickHouse(url: URL, timeoutMs = 30_000): ClickHouse {
  const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8" };
  if (url.username) headers["X-ClickHouse-User"] = decodeURIComponent(url.username);
  if (url.password) headers["X-ClickHouse-Key"] = decodeURIComponent(url.password);
  const base = new URL(url.href);
  base.username = "";
  base.password = "";
  return {
    async run(sql, body) {
      const target = new URL(base.href);
      if (body !== undefined) target.searchParams.set("query", sql);
      let response: Response;
      try {
        response = await fetch(target, {
          method: "POST",
          headers,
          body: body !== undefined ? body : sql,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new ClickHouseError(`cannot reach ClickHouse at ${base.origin}: ${(error as Error).cause ?? (error as Error).message}`);
      }
      const text = await response.text();
      if (!response.ok) throw new ClickHouseError(`ClickHouse answered ${response.status}: ${text.trim().split("\n")[0]}`);
      return text;
    },
  };
}

/** A string as a ClickHouse literal: quoted, with backslash and quote escaped. */
export function sqlString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
