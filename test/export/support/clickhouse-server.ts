// A ClickHouse server of the test's own: Debian's clickhouse-server started on
// a loopback port in a temporary folder with its own config (no root, no
// system service). Absent binary: the tests skip with the reason, unless CI is
// set, where they must run (.ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CANDIDATES = ["/usr/bin/clickhouse-server", "/usr/sbin/clickhouse-server", "/usr/bin/clickhouse"];

/** The server binary, if installed. */
export function clickHouseBinary(): string | undefined {
  const which = spawnSync("sh", ["-c", "command -v clickhouse-server"], { encoding: "utf8" }).stdout.trim();
  if (which) return which;
  return CANDIDATES.find((path) => spawnSync("test", ["-x", path]).status === 0);
}

/** Why the ClickHouse tests skip here, or undefined when they run (always under CI). */
export function clickHouseSkipReason(): string | undefined {
  if (clickHouseBinary()) return undefined;
  if (process.env.CI) return undefined; // under CI the tests run and fail loudly
  return "clickhouse-server is not installed (Debian: apt-get install clickhouse-server; .ci/run installs it)";
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function config(dir: string, http: number, tcp: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <mark_cache_size>536870912</mark_cache_size>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
</yandex>
`;
}

const USERS = `<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

export interface RunningClickHouse {
  url: string;
  version: string;
  /** Runs a statement and returns the text. */
  query(sql: string): Promise<string>;
  stop(): Promise<void>;
}

async function waitReady(url: string, child: ChildProcess, dir: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`clickhouse-server exited ${child.exitCode}; see ${dir}/error.log`);
    try {
      const response = await fetch(url, { method: "POST", body: "SELECT version()" });
      if (response.ok) return (await response.text()).trim();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`clickhouse-server did not answer on ${url} within 60 s; see ${dir}/error.log`);
}

/** Starts a server; call stop() in afterAll. */
export async function startClickHouse(): Promise<RunningClickHouse> {
  const binary = clickHouseBinary();
  if (!binary) throw new Error("clickhouse-server is not installed (Debian: apt-get install clickhouse-server)");
  const dir = mkdtempSync(join(tmpdir(), "utility-clickhouse-"));
  const [http, tcp] = [await freePort(), await freePort()];
  writeFileSync(join(dir, "config.xml"), config(dir, http, tcp));
  writeFileSync(join(dir, "users.xml"), USERS);
  const child = spawn(binary, [`--config-file=${join(dir, "config.xml")}`], { cwd: dir, stdio: "ignore" });
  const url = `http://127.0.0.1:${http}/`;
  const version = await waitReady(url, child, dir).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  return {
    url,
    version,
    async query(sql) {
      const response = await fetch(url, { method: "POST", body: sql });
      const text = await response.text();
      if (!response.ok) throw new Error(`ClickHouse ${response.status}: ${text}\nfor: ${sql}`);
      return text;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
