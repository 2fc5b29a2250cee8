import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { CandidateStore } from "./candidate-store";
import { candidateFacts, NOW } from "@/test-support/shared/candidate-facts";
import { ExamEventStream, type EventSourceLike } from "./exam-event-stream";
import type { CandidateFacts } from "@/lib/shared/schemas/proctor";

/** An EventSource the test drives: it records its listeners and lets the test send events and errors. */
class FakeEventSource implements EventSourceLike {
  readyState = 0;
  isClosed = false;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.isClosed = true;
    this.readyState = 2;
  }

  emit(type: string, data: unknown): void {
    this.readyState = 1;
    for (const listener of this.listeners.get(type) ?? [])
      listener({ data: JSON.stringify(data) } as MessageEvent<string>);
  }

  /** The connection dropped; `isFinal` when the browser gives up (readyState CLOSED) rather than retrying. */
  fail(isFinal: boolean): void {
    this.readyState = isFinal ? 2 : 0;
    for (const listener of this.listeners.get("error") ?? []) listener({ data: "" } as MessageEvent<string>);
  }
}

function setUp() {
  const sources: FakeEventSource[] = [];
  const store = new CandidateStore({ schedule: (callback) => callback() });
  const onResync = vi.fn();
  const onSettled = vi.fn();
  const onAnnouncements = vi.fn();
  const stream = new ExamEventStream({
    url: "/api/proctor/exams/e/events",
    store,
    onResync,
    onSettled,
    onAnnouncements,
    initialRetryMs: 1_000,
    createSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
  });
  stream.start();
  const current = () => sources.at(-1)!;
  return { sources, store, stream, onResync, onSettled, onAnnouncements, current };
}

describe("ExamEventStream", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("goes live on ready, and the first ready lets the snapshot load instead of asking for a resync", () => {
    const { stream, onResync, onSettled, current } = setUp();
    expect(stream.getState()).toBe("connecting");
    current().emit("ready", { serverTime: NOW, resumed: false });
    expect(stream.getState()).toBe("live");
    expect(onSettled).toHaveBeenCalledTimes(1);
    expect(onResync).not.toHaveBeenCalled();
  });

  it("merges candidates events into the store", () => {
    const { store, current } = setUp();
    current().emit("ready", { serverTime: NOW, resumed: false });
    const facts = candidateFacts({ name: "Live One" });
    current().emit("candidates", { serverTime: NOW + 1_000, candidates: [facts] });
    expect(store.get(facts.enrollmentId)?.name).toBe("Live One");
  });

  it("a dropped connection the browser retries shows Reconnecting…, and resuming needs no snapshot", () => {
    const { stream, sources, onResync, current } = setUp();
    current().emit("ready", { serverTime: NOW, resumed: false });
    current().fail(false);
    expect(stream.getState()).toBe("reconnecting");
    current().emit("ready", { serverTime: NOW + 5_000, resumed: true });
    expect(stream.getState()).toBe("live");
    expect(onResync).not.toHaveBeenCalled();
    expect(sources).toHaveLength(1);
  });

  it("a reconnection that could not resume, or a resync event, reloads the snapshot", () => {
    const { onResync, current } = setUp();
    current().emit("ready", { serverTime: NOW, resumed: false });
    current().fail(false);
    current().emit("ready", { serverTime: NOW + 5_000, resumed: false });
    expect(onResync).toHaveBeenCalledTimes(1);
    current().emit("resync", { serverTime: NOW + 6_000, reason: "too many missed" });
    expect(onResync).toHaveBeenCalledTimes(2);
  });

  it("an announcements event asks for the announcements' counts, and nothing else", () => {
    const { onAnnouncements, onResync, current } = setUp();
    current().emit("ready", { serverTime: NOW, resumed: false });
    current().emit("announcements", { serverTime: NOW + 1_000 });
    expect(onAnnouncements).toHaveBeenCalledTimes(1);
    expect(onResync).not.toHaveBeenCalled();
  });

  it("opens a new connection after a growing pause when the browser gave up, and stops for good on stop()", () => {
    const { stream, sources, onSettled, current } = setUp();
    current().fail(true);
    // No ready yet: the snapshot may still load, so the table shows while the stream retries.
    expect(onSettled).toHaveBeenCalledTimes(1);
    expect(sources[0]!.isClosed).toBe(true);
    vi.advanceTimersByTime(999);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(2);

    current().fail(true);
    vi.advanceTimersByTime(1_999);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(3);

    current().fail(true);
    stream.stop();
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(3);
  });

  it("ignores a malformed event rather than breaking the stream", () => {
    const { stream, current } = setUp();
    const source = current();
    for (const listener of (
      source as unknown as { listeners: Map<string, ((event: MessageEvent<string>) => void)[]> }
    ).listeners.get("candidates") ?? []) {
      listener({ data: "{not json" } as MessageEvent<string>);
    }
    expect(stream.getState()).toBe("connecting");
  });

  it("ignores an event of the wrong shape, and reads a candidate's facts without the status sent beside them", () => {
    const { store, current } = setUp();
    current().emit("ready", { serverTime: NOW, resumed: false });
    const facts = candidateFacts({ name: "Shaped" });
    const misshapen: Partial<CandidateFacts> = candidateFacts({ name: "Misshapen" });
    delete misshapen.answered;
    current().emit("candidates", { serverTime: NOW + 1_000, candidates: [misshapen] });
    expect(store.get(misshapen.enrollmentId!)).toBeUndefined();

    current().emit("candidates", {
      serverTime: NOW + 2_000,
      candidates: [{ ...facts, status: { connection: "online" } }],
    });
    expect(store.get(facts.enrollmentId)).toEqual(facts);
  });
});
