// Reads a server-sent events response the way EventSource does, for tests that hold a stream open.

export type SseMessage = { id?: string; event: string; data: unknown; comment?: string };

export type SseReader = {
  /** Every message read so far, in order (comments included, with event ":"). */
  readonly messages: SseMessage[];
  /** Resolves with the first message (read so far or later) at index ≥ `from` that `match` accepts. */
  next: (
    match: (message: SseMessage) => boolean,
    options?: { timeoutMs?: number; from?: number },
  ) => Promise<SseMessage>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Stops reading (the client goes away). */
  cancel: () => Promise<void>;
};

export function readSse(response: Response): SseReader {
  if (!response.body) throw new Error("response has no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  let buffer = "";
  let isEnded = false;

  const parse = (block: string) => {
    const message: SseMessage = { event: "message", data: undefined };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        messages.push({ event: ":", data: undefined, comment: line.slice(1).trim() });
        continue;
      }
      const at = line.indexOf(":");
      const field = at === -1 ? line : line.slice(0, at);
      const value = at === -1 ? "" : line.slice(at + 1).replace(/^ /, "");
      if (field === "id") message.id = value;
      else if (field === "event") message.event = value;
      else if (field === "data") data.push(value);
      else if (field === "retry") message.event = "retry";
    }
    if (data.length > 0) message.data = JSON.parse(data.join("\n"));
    if (data.length > 0 || message.event === "retry") messages.push(message);
  };

  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of [...waiters]) wake();
      }
    } catch {
      // Cancelled by the test.
    } finally {
      isEnded = true;
      for (const wake of [...waiters]) wake();
    }
  })();

  const next: SseReader["next"] = (match, options = {}) =>
    new Promise((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? 5_000;
      const check = () => {
        const found = messages.slice(options.from ?? 0).find(match);
        if (found) {
          cleanup();
          resolve(found);
        } else if (isEnded) {
          cleanup();
          reject(
            new Error(
              `stream ended without a matching message; read: ${JSON.stringify(messages.map((m) => [m.event, m.id]))}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `no matching message in ${timeoutMs} ms; read: ${JSON.stringify(messages.map((m) => [m.event, m.id]))}`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    messages,
    next,
    ended,
    cancel: async () => {
      await reader.cancel().catch(() => undefined);
      await ended;
    },
  };
}
