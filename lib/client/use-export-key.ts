"use client";

import { useEffect } from "react";

import { fetchAndKeepExportKey } from "./emergency-export";

/**
 * Keeps the attempt's emergency-export key on the device (step 1 of docs/sync-protocol.md, "Emergency
 * export"): once the device's record exists and the connection works, and again whenever it comes back,
 * until the key is stored. A side effect with nothing to render, so an effect rather than a query.
 */
export function useKeepExportKey(attemptId: string, options: { isReady: boolean; isOnline: boolean }): void {
  const { isReady, isOnline } = options;
  useEffect(() => {
    if (!isReady || !isOnline) return;
    void fetchAndKeepExportKey(attemptId);
  }, [attemptId, isReady, isOnline]);
}
