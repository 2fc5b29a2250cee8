import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { startFaultProxy, type FaultProxy } from "./fault-proxy";

type Upstream = { port: number; seen: string[]; connections: number; server: Server };

async function startUpstream(): Promise<Upstream> {
  const upstream: Upstream = { port: 0, seen: [], connections: 0, server: createServer() };
  upstream.server.on("connection", () => {
    upstream.connections += 1;
  });
  upstream.server.on("request", (req, res) => {
    upstream.seen.push(req.url ?? "");
    req.resume();
    req.on("end", () => res.end(`ok ${req.url}`));
  });
  await new Promise<void>((resolve) => upstream.server.listen(0, "127.0.0.1", resolve));
  upstream.port = (upstream.server.address() as AddressInfo).port;
  return upstream;
}

/** A GET through `port`; status 0 when the connection failed before a whole response arrived. */
function get(
  port: number,
  path: string,
  agent: Agent | false,
): Promise<{ status: number; body: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", (error) => resolve({ status: 0, body, error: error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, body: "", error: error.code ?? error.message }),
    );
    req.end();
  });
}

async function openUpstreamConnections(upstreams: Upstream[]): Promise<number> {
  const counts = await Promise.all(
    upstreams.map(
      (upstream) =>
        new Promise<number>((resolve, reject) =>
          upstream.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        ),
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** A seeded generator, so rates land near their expectation every time. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  count: number,
  options: Partial<Parameters<typeof startFaultProxy>[0]> = {},
): Promise<{ upstreams: Upstream[]; proxy: FaultProxy }> {
  const upstreams: Upstream[] = [];
  for (let i = 0; i < count; i += 1) {
    const upstream = await startUpstream();
    upstreams.push(upstream);
    cleanups.push(async () => {
      upstream.server.closeAllConnections();
      await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
    });
  }
  const proxy = await startFaultProxy({ upstreams: upstreams.map((upstream) => upstream.port), ...options });
  cleanups.push(() => proxy.close());
  return { upstreams, proxy };
}

describe("fault proxy", () => {
  it("forwards keep-alive requests unchanged when there are no faults", async () => {
    const { upstreams, proxy } = await setUp(1);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 20; i += 1)
      expect(await get(proxy.port, `/r${i}`, agent)).toEqual({ status: 200, body: `ok /r${i}` });
    agent.destroy();
    expect(upstreams[0]?.seen).toHaveLength(20);
    expect(proxy.stats()).toMatchObject({ connections: 1, requests: 20, responsesDropped: 0, resets: 0 });
  });

  it("drops responses after the server processed the request", async () => {
    const { upstreams, proxy } = await setUp(1, { faults: { dropResponseRate: 0.5 }, random: seeded(1) });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => get(proxy.port, `/d${i}`, agent)));
    agent.destroy();
    const answered = results.filter((result) => result.status === 200).length;
    expect(upstreams[0]?.seen).toHaveLength(200);
    expect(answered).toBeGreaterThan(60);
    expect(answered).toBeLessThan(140);
    expect(proxy.stats()).toMatchObject({ requests: 200, responsesDropped: 200 - answered });
  });

  it("resets connections before a request reaches the server", async () => {
    const { upstreams, proxy } = await setUp(1, { faults: { resetRate: 1 } });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => get(proxy.port, `/x${i}`, false)));
    expect(results.every((result) => result.status === 0 && result.error === "ECONNRESET")).toBe(true);
    expect(upstreams[0]?.seen).toEqual([]);
    expect(proxy.stats().resets).toBe(20);

    proxy.setFaults({ resetRate: 0 });
    expect(await get(proxy.port, "/after", false)).toEqual({ status: 200, body: "ok /after" });
  });

  it("delays requests by at least the minimum latency", async () => {
    const { proxy } = await setUp(1, { faults: { latencyMs: { min: 80, max: 120 } } });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 3; i += 1) {
      const startedAt = performance.now();
      expect((await get(proxy.port, "/slow", agent)).status).toBe(200);
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(79);
    }
    agent.destroy();
    expect(proxy.faults().latencyMs).toEqual({ min: 80, max: 120 });
  });

  it("spreads connections round-robin and skips an upstream that refuses", async () => {
    const { upstreams, proxy } = await setUp(3);
    for (let i = 0; i < 9; i += 1) expect((await get(proxy.port, "/rr", false)).status).toBe(200);
    expect(upstreams.map((upstream) => upstream.seen.length)).toEqual([3, 3, 3]);

    const first = upstreams[0];
    if (!first) throw new Error("three upstreams expected");
    // A closed port refuses connections, like a killed instance.
    first.server.closeAllConnections();
    await new Promise<void>((resolve) => first.server.close(() => resolve()));
    for (let i = 0; i < 6; i += 1) expect((await get(proxy.port, "/skip", false)).status).toBe(200);
    expect(first.seen).toHaveLength(3);
    expect(upstreams.reduce((sum, upstream) => sum + upstream.seen.length, 0)).toBe(15);
    expect(proxy.stats().upstreamRefused).toBeGreaterThanOrEqual(2);

    // With nothing listening at all, the client is reset and the failure counted.
    proxy.setUpstreams([first.port]);
    expect(await get(proxy.port, "/none", false)).toMatchObject({ status: 0, error: "ECONNRESET" });
    expect(proxy.stats().upstreamUnavailable).toBe(1);
  });

  it("leaves no connection behind after many come and go, and close() ends open ones", async () => {
    const { upstreams, proxy } = await setUp(2, {
      faults: { dropResponseRate: 0.2, resetRate: 0.2 },
      random: seeded(7),
    });
    for (let round = 0; round < 10; round += 1)
      await Promise.all(Array.from({ length: 50 }, () => get(proxy.port, "/churn", false)));
    expect(proxy.stats().connections).toBe(500);
    await expect.poll(() => openUpstreamConnections(upstreams)).toBe(0);

    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    proxy.setFaults({ dropResponseRate: 0, resetRate: 0 });
    await Promise.all(Array.from({ length: 4 }, () => get(proxy.port, "/open", agent)));
    expect(await openUpstreamConnections(upstreams)).toBe(4);
    await proxy.close();
    await expect.poll(() => openUpstreamConnections(upstreams)).toBe(0);
    expect((await get(proxy.port, "/closed", false)).status).toBe(0);
    agent.destroy();
  });
});
