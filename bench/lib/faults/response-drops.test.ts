import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { createAgent, send } from "../load/http-client";
import { responseDrops } from "./response-drops";

let server: Server | null = null;

afterEach(async () => {
  const closing = server;
  server = null;
  if (!closing) return;
  closing.closeAllConnections();
  await new Promise((resolve) => closing.close(resolve));
});

/** A server that counts what it processed and the connections it was given. */
async function counting(): Promise<{ port: number; processed: string[]; connections: () => number }> {
  const processed: string[] = [];
  let connections = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      processed.push(req.url ?? "");
      res.end(JSON.stringify({ ok: req.url }));
    });
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, processed, connections: () => connections };
}

describe("responses dropped in the client", () => {
  it("the server processed the request; the client sees a reset, and its next request a new connection", async () => {
    const upstream = await counting();
    const agent = createAgent(1);
    const drops = responseDrops();
    const post = (path: string) =>
      send({ agent, port: upstream.port, method: "POST", path, body: "{}", isDropped: () => drops.isDropped() });

    expect(await post("/kept")).toMatchObject({ status: 200, body: '{"ok":"/kept"}' });
    drops.setRate(1);
    expect(await post("/dropped")).toEqual({ status: 0, headers: {}, body: "", error: "ECONNRESET" });
    drops.setRate(0);
    expect(await post("/after")).toMatchObject({ status: 200 });

    expect(upstream.processed).toEqual(["/kept", "/dropped", "/after"]);
    // The dropped response's connection was thrown away, as after a reset: the next request opened another.
    expect(upstream.connections()).toBe(2);
    expect(drops.stats()).toEqual({ responses: 3, dropped: 1 });
    agent.destroy();
  });

  it("drops about the share it is set to, and none at 0", () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    const drops = responseDrops(random);
    for (let i = 0; i < 1_000; i += 1) drops.isDropped();
    expect(drops.stats().dropped).toBe(0);
    drops.setRate(0.1);
    for (let i = 0; i < 10_000; i += 1) drops.isDropped();
    expect(drops.stats().dropped).toBeGreaterThan(900);
    expect(drops.stats().dropped).toBeLessThan(1_100);
    expect(() => drops.setRate(1.5)).toThrow(/\[0, 1\]/);
    expect(() => drops.setRate(Number.NaN)).toThrow(/\[0, 1\]/);
  });
});
