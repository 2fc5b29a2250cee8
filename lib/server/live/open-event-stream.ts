import "server-only";

import { MAX_QUEUED_EVENTS } from "./exam-feed";

/** Headers of every server-sent events response: no caching, no proxy buffering (nginx honours the last). */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
} as const;

const RETRY = new TextEncoder().encode("retry: 2000\n\n");

export type EventStreamSink = {
  /** Queues bytes; false once more than MAX_QUEUED_EVENTS chunks wait for a slow client. */
  send: (bytes: Uint8Array) => boolean;
  close: () => void;
  readonly isClosed: boolean;
};

/**
 * A server-sent events response whose body the caller writes through a sink. The stream counts queued chunks
 * (not bytes), so "too far behind" means events, whatever their size. `onClose` runs once, whether the client
 * went away (the request aborted, or the body was cancelled) or the server closed it.
 */
export function openEventStream(options: {
  signal: AbortSignal;
  onOpen: (sink: EventStreamSink) => void;
  onClose: () => void;
}): Response {
  let isClosed = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const finish = () => {
    if (isClosed) return;
    isClosed = true;
    options.signal.removeEventListener("abort", finish);
    try {
      controller?.close();
    } catch {
      // Already closed or errored by the runtime: nothing left to do.
    }
    options.onClose();
  };
  const sink: EventStreamSink = {
    send: (bytes) => {
      if (isClosed || !controller) return true;
      controller.enqueue(bytes);
      return (controller.desiredSize ?? 0) > -MAX_QUEUED_EVENTS;
    },
    close: finish,
    get isClosed() {
      return isClosed;
    },
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        streamController.enqueue(RETRY);
        if (options.signal.aborted) {
          finish();
          return;
        }
        options.signal.addEventListener("abort", finish);
        options.onOpen(sink);
      },
      cancel: finish,
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
