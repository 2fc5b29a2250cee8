import type {
  ChannelLike,
  EventStreamLike,
  LockManagerLike,
  OpenEventStream,
  SyncEnvironment,
} from "@/lib/client/sync/environment";

type Waiter = {
  callback: () => Promise<void>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** An exclusive, first-come Web Locks stand-in shared by the "tabs" of a test. */
export class FakeLockManager implements LockManagerLike {
  private readonly held = new Set<string>();
  private readonly queues = new Map<string, Waiter[]>();

  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { callback, resolve, reject };
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new DOMException("The lock request was aborted.", "AbortError"));
        return;
      }
      signal?.addEventListener("abort", () => {
        const queue = this.queues.get(name) ?? [];
        const index = queue.indexOf(waiter);
        if (index >= 0) {
          queue.splice(index, 1);
          reject(new DOMException("The lock request was aborted.", "AbortError"));
        }
      });
      const queue = this.queues.get(name) ?? [];
      queue.push(waiter);
      this.queues.set(name, queue);
      this.grant(name);
    });
  }

  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  private grant(name: string): void {
    if (this.held.has(name)) return;
    const waiter = this.queues.get(name)?.shift();
    if (!waiter) return;
    this.held.add(name);
    const release = () => {
      this.held.delete(name);
      this.grant(name);
    };
    Promise.resolve()
      .then(() => waiter.callback())
      .then(
        (value) => {
          release();
          waiter.resolve(value);
        },
        (error: unknown) => {
          release();
          waiter.reject(error);
        },
      );
  }
}

/** BroadcastChannel stand-in: delivers to every other open channel of the same name, never to the sender. */
export class FakeChannelHub {
  private readonly open = new Set<{ name: string; onMessage: (data: unknown) => void }>();

  readonly openChannel = (name: string, onMessage: (data: unknown) => void): ChannelLike => {
    const self = { name, onMessage };
    this.open.add(self);
    return {
      post: (message) => {
        const data = structuredClone(message);
        for (const other of this.open) {
          if (other !== self && other.name === name) queueMicrotask(() => other.onMessage(structuredClone(data)));
        }
      },
      close: () => {
        this.open.delete(self);
      },
    };
  };
}

/** One stream the engine opened: what it asked for, and a way for the test to play the server. */
export type FakeStream = EventStreamLike & {
  url: string;
  events: readonly string[];
  isClosed: boolean;
  /** Delivers an event as EventSource would (only the names the engine listens to). */
  emit(name: string, data: unknown): void;
};

/** EventSource stand-in: records every stream the engine opens. */
export class FakeEventStreams {
  readonly opened: FakeStream[] = [];

  readonly open: OpenEventStream = (url, events, onEvent) => {
    const stream: FakeStream = {
      url,
      events,
      isClosed: false,
      close: () => {
        stream.isClosed = true;
      },
      emit: (name, data) => {
        if (!stream.isClosed && events.includes(name)) onEvent(name, data);
      },
    };
    this.opened.push(stream);
    return stream;
  };

  /** The streams open now. */
  live(): FakeStream[] {
    return this.opened.filter((stream) => !stream.isClosed);
  }
}

export type TestEnvironment = SyncEnvironment & {
  window: EventTarget;
  document: EventTarget;
  setOnline(online: boolean): void;
  setVisible(visible: boolean): void;
  pageHide(): void;
};

/** One "tab": its own window and document events, sharing locks and channels with the other tabs of the test. */
export function testEnvironment(
  options: {
    locks?: LockManagerLike | null;
    hub?: FakeChannelHub | null;
    storagePersisted?: boolean | null;
    streams?: FakeEventStreams | null;
  } = {},
): TestEnvironment {
  const win = new EventTarget();
  const doc = new EventTarget();
  let online = true;
  let visible = true;
  return {
    window: win,
    document: doc,
    isOnline: () => online,
    isVisible: () => visible,
    storagePersisted: async () => options.storagePersisted ?? null,
    locks: options.locks ?? null,
    openChannel: options.hub ? options.hub.openChannel : null,
    openEventStream: options.streams ? options.streams.open : null,
    setOnline(next) {
      online = next;
      win.dispatchEvent(new Event(next ? "online" : "offline"));
    },
    setVisible(next) {
      visible = next;
      doc.dispatchEvent(new Event("visibilitychange"));
    },
    pageHide() {
      win.dispatchEvent(new Event("pagehide"));
    },
  };
}
