// The candidate channel as thousands of pages hold it: one `text/event-stream` response per candidate,
// read to the end, reopened after a drop as EventSource does (after its 3 s retry), closed when the
// candidate is done. Raw node:http with no agent (one socket each, as the browser's stream has its own
// connection) and no parsing beyond counting events, so 10,000 open streams cost the load generator little.
import { request as httpRequest, type ClientRequest } from "node:http";

import type { RunStats } from "./op-stats";

/** EventSource's default reconnection time. */
const RECONNECT_MS = 3_000;

export type EventStreamTally = {
  /** Streams open now (response headers received, not ended). */
  open: number;
  /** The most open at once. */
  peakOpen: number;
  opened: number;
  /** Streams that ended or failed while the candidate still wanted them (reconnected after 3 s). */
  dropped: number;
  /** Events received (blocks ending in a blank line that carry an `event:` or `data:` line). */
  events: number;
  /** Answers other than 200 to the stream's GET, by status. */
  refused: Record<string, number>;
};

export function newEventStreamTally(): EventStreamTally {
  return { open: 0, peakOpen: 0, opened: 0, dropped: 0, events: 0, refused: {} };
}

/**
 * Holds `GET path` open on 127.0.0.1:`port` with the candidate's cookie until `close()`. The time to the
 * response headers is recorded as operation `channel open` in `stats`.
 */
export function holdEventStream(options: {
  port: number;
  path: string;
  cookie: string;
  stats: RunStats;
  tally: EventStreamTally;
  signal: AbortSignal;
}): { close(): void } {
  const { tally, stats } = options;
  let isClosed = false;
  let current: ClientRequest | null = null;
  let retry: NodeJS.Timeout | null = null;

  const connect = (): void => {
    if (isClosed || options.signal.aborted) return;
    const sentAt = stats.now();
    let isOpen = false;
    let isDone = false;
    const done = (outcome: "ended" | "failed"): void => {
      if (isDone) return;
      isDone = true;
      if (isOpen) tally.open -= 1;
      current = null;
      if (isClosed || options.signal.aborted) return;
      if (outcome === "failed" || isOpen) tally.dropped += 1;
      retry = setTimeout(connect, RECONNECT_MS);
    };
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: options.port,
        method: "GET",
        path: options.path,
        headers: { cookie: options.cookie, accept: "text/event-stream" },
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const kind = status === 200 ? "ok" : status === 429 || status === 503 ? "limited" : "error";
        stats.op("channel open").record(sentAt, stats.now() - sentAt, String(status), kind);
        if (status !== 200) {
          tally.refused[status] = (tally.refused[status] ?? 0) + 1;
          response.resume();
          response.on("end", () => done("failed"));
          response.on("error", () => done("failed"));
          return;
        }
        isOpen = true;
        tally.open += 1;
        tally.opened += 1;
        tally.peakOpen = Math.max(tally.peakOpen, tally.open);
        // Counting blank-line-terminated blocks is enough; comments (`:` keep-alives) are not events.
        let carry = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          const blocks = (carry + chunk).split("\n\n");
          carry = blocks.pop() ?? "";
          for (const block of blocks) if (/^(event|data):/m.test(block)) tally.events += 1;
        });
        response.on("end", () => done("ended"));
        response.on("error", () => done("failed"));
        response.on("close", () => done("ended"));
      },
    );
    request.on("error", (error) => {
      if (!isOpen && !isClosed)
        stats
          .op("channel open")
          .record(
            sentAt,
            stats.now() - sentAt,
            `ERR ${(error as NodeJS.ErrnoException).code ?? error.message}`,
            "error",
          );
      done("failed");
    });
    request.end();
    current = request;
  };

  const close = (): void => {
    if (isClosed) return;
    isClosed = true;
    if (retry) clearTimeout(retry);
    current?.destroy();
  };
  options.signal.addEventListener("abort", close, { once: true });
  connect();
  return { close };
}
