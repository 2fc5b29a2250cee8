// A TCP proxy between the load clients and the app instances that misbehaves on purpose, the way a bad
// network and a load balancer do: it spreads connections over the instances, skips one that refuses
// (killed), and, at rates that can change during a run, delays requests, resets connections before a
// request reaches a server, or drops a response after the server processed the request. The last one
// is what makes retries dangerous, and so what "never submits twice" must survive.
//
// It works on bytes, not on HTTP: it knows only whose turn it is on a connection. Client bytes after
// upstream bytes (or on a fresh connection) begin a new request; upstream bytes after forwarded client
// bytes begin its response. That is enough for HTTP/1.1 keep-alive without pipelining, which is what
// node:http's Agent and undici (Node's fetch) do.
import { createConnection, createServer, type Server, type Socket } from "node:net";

import { LISTEN_BACKLOG } from "../../../scripts/start/fast-routes.mjs";

export type FaultSettings = {
  /** Probability that a response is dropped once the upstream starts sending it (the request was processed). */
  dropResponseRate: number;
  /** Probability that a new request resets the connection before any of it reaches the upstream. */
  resetRate: number;
  /** Delay of each client→upstream chunk, uniform in [min, max] ms; order is preserved. */
  latencyMs: { min: number; max: number };
};

export type FaultProxyStats = {
  connections: number;
  /** Responses that began (first upstream bytes after a forwarded request), dropped ones included. */
  requests: number;
  responsesDropped: number;
  resets: number;
  /** Connection attempts to an upstream that failed (one client connection may count several). */
  upstreamRefused: number;
  /** Client connections reset because no upstream accepted them. */
  upstreamUnavailable: number;
};

export type FaultProxy = {
  port: number;
  setFaults(faults: Partial<FaultSettings>): void;
  faults(): FaultSettings;
  /** Applies to connections opened from now on; open ones keep their upstream. */
  setUpstreams(ports: number[]): void;
  stats(): FaultProxyStats;
  close(): Promise<void>;
};

export const NO_FAULTS: FaultSettings = { dropResponseRate: 0, resetRate: 0, latencyMs: { min: 0, max: 0 } };

function checkFaults(faults: FaultSettings): FaultSettings {
  const isRate = (value: number): boolean => Number.isFinite(value) && value >= 0 && value <= 1;
  if (!isRate(faults.dropResponseRate) || !isRate(faults.resetRate))
    throw new Error(`fault rates must be within [0, 1]: ${JSON.stringify(faults)}`);
  const { min, max } = faults.latencyMs;
  if (!(Number.isFinite(min) && Number.isFinite(max) && min >= 0 && max >= min))
    throw new Error(`latency must be 0 <= min <= max: ${JSON.stringify(faults.latencyMs)}`);
  return { dropResponseRate: faults.dropResponseRate, resetRate: faults.resetRate, latencyMs: { min, max } };
}

/** Connects to the first upstream (from `start`, round the list) that accepts; null when none does. */
function connectUpstream(ports: readonly number[], start: number, onRefused: () => void): Promise<Socket | null> {
  return new Promise((resolve) => {
    const tryAt = (offset: number): void => {
      if (offset >= ports.length) return resolve(null);
      const port = ports[(start + offset) % ports.length];
      if (port === undefined) return resolve(null);
      const socket = createConnection({ host: "127.0.0.1", port, allowHalfOpen: true });
      const onError = (): void => {
        socket.destroy();
        onRefused();
        tryAt(offset + 1);
      };
      socket.once("error", onError);
      socket.once("connect", () => {
        socket.off("error", onError);
        resolve(socket);
      });
    };
    tryAt(0);
  });
}

export async function startFaultProxy(options: {
  upstreams: number[];
  faults?: Partial<FaultSettings>;
  random?: () => number;
}): Promise<FaultProxy> {
  const random = options.random ?? Math.random;
  let faults = checkFaults({ ...NO_FAULTS, ...options.faults });
  let upstreams = [...options.upstreams];
  let nextUpstream = 0;
  let isClosed = false;
  const stats: FaultProxyStats = {
    connections: 0,
    requests: 0,
    responsesDropped: 0,
    resets: 0,
    upstreamRefused: 0,
    upstreamUnavailable: 0,
  };
  // Every open connection's teardown, so close() can end them all; each removes itself when it ends.
  const open = new Set<(how: "reset" | "destroy") => void>();

  const handle = (client: Socket): void => {
    stats.connections += 1;
    // Nothing is read from the client until an upstream is chosen: the kernel buffers what it sends.
    client.pause();
    client.setNoDelay(true);
    let upstream: Socket | null = null;
    // Chunks held back by the latency fault, each with the time it may go; one timer serves the head.
    const queue: { at: number; chunk: Buffer }[] = [];
    let timer: NodeJS.Timeout | undefined;
    let releasedAt = 0;
    let hasClientEnded = false;
    // Whose turn it is: true from a request's first client bytes until its response's first upstream bytes.
    let isClientTurn = false;
    let hasForwarded = false;
    let isDone = false;

    const teardown = (how: "reset" | "destroy"): void => {
      if (isDone) return;
      isDone = true;
      open.delete(teardown);
      clearTimeout(timer);
      queue.length = 0;
      if (how === "reset" && !client.destroyed) client.resetAndDestroy();
      else client.destroy();
      upstream?.destroy();
    };
    open.add(teardown);
    client.on("error", () => teardown("destroy"));
    client.on("close", () => teardown("destroy"));

    const flush = (): void => {
      timer = undefined;
      const now = Date.now();
      while (queue.length > 0 && (queue[0]?.at ?? Infinity) <= now) {
        const item = queue.shift();
        if (item && upstream && !upstream.destroyed) {
          hasForwarded = true;
          if (!upstream.write(item.chunk)) client.pause();
        }
      }
      const head = queue[0];
      if (head) timer = setTimeout(flush, Math.max(0, head.at - now));
      else if (hasClientEnded) upstream?.end();
    };

    const onClientData = (chunk: Buffer): void => {
      if (!isClientTurn) {
        // A new request: its first bytes decide whether it ever reaches the server.
        isClientTurn = true;
        hasForwarded = false;
        if (faults.resetRate > 0 && random() < faults.resetRate) {
          stats.resets += 1;
          teardown("reset");
          return;
        }
      }
      const { min, max } = faults.latencyMs;
      const delay = max > 0 ? min + random() * (max - min) : 0;
      if (delay === 0 && queue.length === 0) {
        hasForwarded = true;
        if (upstream && !upstream.write(chunk)) client.pause();
        return;
      }
      // Never earlier than the chunk before it, so a shorter draw cannot overtake a longer one.
      releasedAt = Math.max(releasedAt, Date.now() + delay);
      queue.push({ at: releasedAt, chunk });
      if (timer === undefined) timer = setTimeout(flush, Math.max(0, (queue[0]?.at ?? 0) - Date.now()));
    };

    const onUpstreamData = (chunk: Buffer): void => {
      if (isClientTurn && hasForwarded) {
        isClientTurn = false;
        stats.requests += 1;
        if (faults.dropResponseRate > 0 && random() < faults.dropResponseRate) {
          stats.responsesDropped += 1;
          teardown("reset");
          return;
        }
      }
      if (!client.write(chunk)) upstream?.pause();
    };

    const startIndex = nextUpstream;
    nextUpstream = (nextUpstream + 1) % Math.max(1, upstreams.length);
    void connectUpstream(upstreams, startIndex, () => {
      stats.upstreamRefused += 1;
    }).then((socket) => {
      if (!socket) {
        stats.upstreamUnavailable += 1;
        teardown("reset");
        return;
      }
      if (isDone) {
        socket.destroy();
        return;
      }
      upstream = socket;
      socket.setNoDelay(true);
      socket.on("data", onUpstreamData);
      socket.on("drain", () => client.resume());
      socket.on("end", () => client.end());
      socket.on("error", () => teardown("destroy"));
      socket.on("close", () => teardown("destroy"));
      client.on("data", onClientData);
      client.on("drain", () => socket.resume());
      client.on("end", () => {
        hasClientEnded = true;
        if (queue.length === 0) socket.end();
      });
      client.resume();
    });
  };

  const server: Server = createServer({ allowHalfOpen: true }, handle);
  server.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Port 0: the kernel picks a free port, so parallel runs cannot collide. The accept queue is as long as the
    // kernel allows (LISTEN_BACKLOG): a deadline storm opens thousands of connections within seconds while this
    // process also runs the candidates, and a full queue drops their SYNs, which the client's kernel resends
    // after 1, 3, 7, 15 s — latency the generator would add, not the app.
    server.listen({ port: 0, host: "127.0.0.1", backlog: LISTEN_BACKLOG }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("the fault proxy has no port");

  return {
    port: address.port,
    setFaults: (changes) => {
      faults = checkFaults({ ...faults, ...changes, latencyMs: { ...faults.latencyMs, ...changes.latencyMs } });
    },
    faults: () => ({ ...faults, latencyMs: { ...faults.latencyMs } }),
    setUpstreams: (ports) => {
      upstreams = [...ports];
      nextUpstream = 0;
    },
    stats: () => ({ ...stats }),
    close: async () => {
      if (isClosed) return;
      isClosed = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const teardown of [...open]) teardown("destroy");
      await closed;
    },
  };
}
