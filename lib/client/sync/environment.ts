/**
 * The browser facilities the sync engine uses, behind one object so tests (and browsers without them) can
 * supply their own. Where Web Locks or BroadcastChannel is missing, the engine runs as the only tab.
 */

/** The part of the Web Locks API (`navigator.locks`) the engine uses. */
export type LockManagerLike = {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
};

/** A named channel to the other tabs of this origin (BroadcastChannel); messages are never echoed to the sender. */
export type ChannelLike = {
  post(message: unknown): void;
  close(): void;
};

/** The page's live channel from the server (an EventSource): closed by the engine, reconnecting by itself meanwhile. */
export type EventStreamLike = {
  close(): void;
};

/**
 * Opens `url` as Server-Sent Events and hands every event named in `events` to `onEvent` with its data parsed as
 * JSON (an event whose data is not JSON is dropped).
 */
export type OpenEventStream = (
  url: string,
  events: readonly string[],
  onEvent: (name: string, data: unknown) => void,
) => EventStreamLike;

export type SyncEnvironment = {
  /** Receives `online`, `offline` and `pagehide` (the window). */
  window: EventTarget | null;
  /** Receives `visibilitychange` (the document). */
  document: EventTarget | null;
  /** `navigator.onLine`: false means offline for sure; true means only "maybe". */
  isOnline(): boolean;
  isVisible(): boolean;
  /** `navigator.storage.persisted()`, or null when unknown. */
  storagePersisted(): Promise<boolean | null>;
  locks: LockManagerLike | null;
  openChannel: ((name: string, onMessage: (data: unknown) => void) => ChannelLike) | null;
  /** EventSource, for the candidate's presence stream; absent or null where there is none (tests, old browsers, Node). */
  openEventStream?: OpenEventStream | null;
};

/** The real browser, degrading to "no such facility" wherever one is missing (server render, old browsers, tests). */
export function browserEnvironment(): SyncEnvironment {
  const win = typeof window === "undefined" ? null : window;
  const doc = typeof document === "undefined" ? null : document;
  const nav = typeof navigator === "undefined" ? null : navigator;
  const locks = nav && "locks" in nav && nav.locks ? nav.locks : null;
  return {
    window: win,
    document: doc,
    isOnline: () => nav?.onLine ?? true,
    isVisible: () => doc?.visibilityState !== "hidden",
    storagePersisted: async () => {
      try {
        return nav?.storage?.persisted ? await nav.storage.persisted() : null;
      } catch {
        return null;
      }
    },
    locks: locks ? { request: (name, options, callback) => locks.request(name, options, callback) } : null,
    openChannel:
      typeof BroadcastChannel === "undefined"
        ? null
        : (name, onMessage) => {
            const channel = new BroadcastChannel(name);
            channel.onmessage = (event: MessageEvent) => onMessage(event.data);
            return { post: (message) => channel.postMessage(message), close: () => channel.close() };
          },
    openEventStream:
      typeof EventSource === "undefined"
        ? null
        : (url, events, onEvent) => {
            const source = new EventSource(url);
            for (const name of events) {
              source.addEventListener(name, (event: MessageEvent<string>) => {
                let data: unknown;
                try {
                  data = JSON.parse(event.data);
                } catch {
                  return;
                }
                onEvent(name, data);
              });
            }
            return { close: () => source.close() };
          },
  };
}
