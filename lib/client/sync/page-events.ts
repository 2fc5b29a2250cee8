import type { SyncEnvironment } from "./environment";

/** What the engine does on the page's own events. */
export type PageEventHandlers = {
  online(): void;
  offline(): void;
  /** `visibilitychange`, with whether the page is now visible. */
  visibility(visible: boolean): void;
  pageHide(): void;
};

/** Listens to the window's and document's events; returns the function that stops listening. */
export function attachPageEvents(env: SyncEnvironment, handlers: PageEventHandlers): () => void {
  const onOnline = () => handlers.online();
  const onOffline = () => handlers.offline();
  const onPageHide = () => handlers.pageHide();
  const onVisibility = () => handlers.visibility(env.isVisible());
  env.window?.addEventListener("online", onOnline);
  env.window?.addEventListener("offline", onOffline);
  env.window?.addEventListener("pagehide", onPageHide);
  env.document?.addEventListener("visibilitychange", onVisibility);
  return () => {
    env.window?.removeEventListener("online", onOnline);
    env.window?.removeEventListener("offline", onOffline);
    env.window?.removeEventListener("pagehide", onPageHide);
    env.document?.removeEventListener("visibilitychange", onVisibility);
  };
}
