"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

const SCRIPT_URL = "/sw.js";

/** `language`: the page's own (`<html lang>`), so the copy the worker fetches speaks it too (public/sw.js). */
type KeepMessage = { type: "holdfast:keep"; page: string | null; assets: string[]; language?: string };

export function tellWorker(container: ServiceWorkerContainer, message: KeepMessage) {
  const language = message.language ?? document.documentElement.lang;
  void container.ready.then((registration) => registration.active?.postMessage({ ...message, language }));
}

function isStaticAsset(name: string): boolean {
  const url = new URL(name, location.href);
  return url.origin === location.origin && url.pathname.startsWith("/_next/static/");
}

/**
 * Registers public/sw.js, the worker that lets a reload without a connection open the exam page again.
 * Production builds only: in development, asset names are not hashed, so a cache-first worker would
 * serve stale code; there it removes a worker left over from a production run on the same origin.
 *
 * It also tells the worker what to keep that the worker could not see for itself: on the very first
 * visit the page and its scripts load before the worker controls the page, and a client-side navigation
 * (Start → the exam page) fetches an RSC payload rather than the page's HTML. Renders nothing; no effect
 * where service workers are unsupported.
 */
export function ServiceWorkerRegistration({ isEnabled }: { isEnabled: boolean }) {
  const pathname = usePathname();
  const isFirstPage = useRef(true);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const container = navigator.serviceWorker;
    if (!isEnabled) {
      void container.getRegistrations().then((registrations) => {
        for (const registration of registrations) {
          if (registration.active?.scriptURL.endsWith(SCRIPT_URL)) void registration.unregister();
        }
      });
      return;
    }
    // A failed registration (storage disabled, some private windows) leaves the page as it was.
    container.register(SCRIPT_URL, { scope: "/", updateViaCache: "none" }).catch(() => undefined);

    // Every script and stylesheet this page loads, including those loaded before the worker took control
    // (`buffered`) and those still loading as it does; the worker skips what it already keeps.
    if (typeof PerformanceObserver === "undefined") return;
    const observer = new PerformanceObserver((list) => {
      const assets = list
        .getEntries()
        .map((entry) => entry.name)
        .filter(isStaticAsset);
      if (assets.length > 0) tellWorker(container, { type: "holdfast:keep", page: null, assets });
    });
    try {
      observer.observe({ type: "resource", buffered: true });
    } catch {
      return;
    }
    return () => observer.disconnect();
  }, [isEnabled]);

  useEffect(() => {
    if (!isEnabled || !("serviceWorker" in navigator)) return;
    const container = navigator.serviceWorker;
    // The first page of a visit went through the worker only if the worker controlled it from the start;
    // every later page was reached client-side, so the worker never saw its HTML.
    const isSeenByWorker = isFirstPage.current && container.controller !== null;
    isFirstPage.current = false;
    if (!isSeenByWorker) tellWorker(container, { type: "holdfast:keep", page: location.href, assets: [] });
  }, [isEnabled, pathname]);

  return null;
}
