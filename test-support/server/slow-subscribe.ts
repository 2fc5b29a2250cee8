// Fault injection on the live bus's real Redis connection: its SUBSCRIBE commands reach Redis `delayMs` late, as
// on a busy or distant Redis. Tests of "listen before you read" use it to widen the window a reader that read
// first would fall into. Restore it with the returned spy's mockRestore().
import type { Redis } from "ioredis";
import { vi, type MockInstance } from "vitest";

import { subscribeExam } from "@/lib/server/live/exam-bus";

export async function delayBusSubscribes(delayMs: number): Promise<MockInstance> {
  // The bus makes its subscriber connection on first use: use it once, so there is one to slow down.
  const warm = subscribeExam(crypto.randomUUID(), () => undefined);
  await warm.live;
  warm();
  const connection = (globalThis as { holdfastExamBus?: { subscriber: Redis | null } }).holdfastExamBus?.subscriber;
  if (!connection) throw new Error("the live bus has no Redis subscriber connection");
  const subscribe = connection.subscribe.bind(connection) as (...channels: string[]) => Promise<unknown>;
  return vi.spyOn(connection, "subscribe").mockImplementation((async (...channels: string[]) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return subscribe(...channels);
  }) as unknown as Redis["subscribe"]);
}
