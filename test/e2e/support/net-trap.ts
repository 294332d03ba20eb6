/**
 * A loopback HTTP proxy that refuses everything and records what was tried.
 *
 * Claude Code honours HTTP_PROXY / HTTPS_PROXY; pointing them here (with
 * NO_PROXY for 127.0.0.1 / localhost, where the scripted model lives) makes
 * any attempt to reach a non-loopback host fail fast, offline, and leaves a
 * record a test can assert on.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface OutboundAttempt {
  method: string;
  /** CONNECT host:port, or the absolute URL of a plain-HTTP proxy request */
  target: string;
  time: number;
}

export interface NetTrap {
  url: string;
  attempts: OutboundAttempt[];
  /** environment variables that route traffic through the trap */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startNetTrap(): Promise<NetTrap> {
  const attempts: OutboundAttempt[] = [];
  const server: Server = createServer((req, res) => {
    attempts.push({ method: req.method ?? "GET", target: req.url ?? "", time: Date.now() });
    res.writeHead(403, { "content-type": "text/plain" });
    res.end("outbound traffic is blocked in end-to-end tests\n");
  });
  server.on("connect", (req, socket) => {
    socket.on("error", () => {});
    attempts.push({ method: "CONNECT", target: req.url ?? "", time: Date.now() });
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  server.on("connection", (socket) => socket.on("error", () => {}));
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    attempts,
    env: () => ({
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      NO_PROXY: "127.0.0.1,localhost,::1",
      no_proxy: "127.0.0.1,localhost,::1",
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
