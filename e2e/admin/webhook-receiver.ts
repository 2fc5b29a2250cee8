import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got: the Standard Webhooks headers, the body, and what it answered. */
export type ReceivedDelivery = {
  webhookId: string;
  timestamp: string;
  signature: string;
  body: unknown;
  answered: number;
};

/**
 * A results receiver for the webhook stories (issue 16): an http server on 127.0.0.1, on a port the system picks,
 * that records every request and answers with `status` — change it mid-test ("the receiver is fixed").
 */
export type WebhookReceiver = {
  url: string;
  status: number;
  received: ReceivedDelivery[];
  close: () => Promise<void>;
};

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

export async function startWebhookReceiver(initialStatus: number): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, "url" | "close"> = { status: initialStatus, received: [] };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the story checks what arrived, whatever it is.
      }
      const answered = receiver.status;
      receiver.received.push({
        webhookId: header(request.headers, "webhook-id"),
        timestamp: header(request.headers, "webhook-timestamp"),
        signature: header(request.headers, "webhook-signature"),
        body,
        answered,
      });
      response.writeHead(answered, { "Content-Type": "text/plain; charset=utf-8" });
      response.end(answered < 300 ? "ok" : `receiver says ${answered}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/holdfast`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
