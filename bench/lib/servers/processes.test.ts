import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { probeOnce } from "./processes";

const servers: (Server | HttpServer)[] = [];
const sockets: Socket[] = [];

function listen<T extends Server | HttpServer>(server: T, port = 0): Promise<number> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}

function close(server: Server | HttpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) if (server.listening) await close(server);
});

describe("probeOnce (the health probe that starts and restarts instances)", () => {
  it("settles within its time-out when a server accepts the connection and never answers", async () => {
    const port = await listen(createServer((socket) => sockets.push(socket)));
    const startedAt = Date.now();
    const outcome = await probeOnce(port, "/api/health", 300);
    expect(outcome).toBe("no answer within 300 ms");
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it("reaches a server started again on the same port after the first one went away mid-connection", async () => {
    const first = createHttpServer((_, response) => response.writeHead(200).end("first"));
    const port = await listen(first);
    expect(await probeOnce(port, "/api/health", 1_000)).toBe(200);
    first.closeAllConnections();
    await close(first);
    expect(typeof (await probeOnce(port, "/api/health", 1_000))).toBe("string"); // refused: nobody listens
    await listen(
      createHttpServer((_, response) => response.writeHead(200).end("second")),
      port,
    );
    expect(await probeOnce(port, "/api/health", 1_000)).toBe(200);
  });
});
