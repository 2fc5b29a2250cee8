// A webhook receiver on 127.0.0.1 for the delivery tests: records every request and answers as the test says.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = {
  at: number;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: Record<string, string>;
};

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each answer; the default is 200. */
  answer: (request: ReceivedRequest, index: number) => Answer | Promise<Answer>;
  /** Requests the receiver is holding (answer "hang"), released when the receiver closes. */
  close: () => Promise<void>;
};

export async function startReceiver(answer?: Receiver["answer"]): Promise<Receiver> {
  const held: ServerResponse[] = [];
  const receiver: Receiver = {
    url: "",
    requests: [],
    answer: answer ?? (() => ({ status: 200, body: "ok" })),
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([key, value]) => [key, String(value ?? "")]),
      );
      const received: ReceivedRequest = {
        at: Date.now(),
        id: headers["webhook-id"] ?? "",
        timestamp: headers["webhook-timestamp"] ?? "",
        signature: headers["webhook-signature"] ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
        headers,
      };
      const index = receiver.requests.push(received) - 1;
      void Promise.resolve(receiver.answer(received, index)).then((result) => {
        if (result === "hang") {
          held.push(response);
          return;
        }
        response.writeHead(result.status, { "content-type": "text/plain", ...result.headers });
        response.end(result.body ?? "");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
