"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";

import { CandidateStore } from "./candidate-store";
import { ExamEventStream, type StreamState } from "./exam-event-stream";
import { examEventsUrl, fetchCandidatesSnapshot } from "./proctor-api";
import { proctorKeys } from "./query-keys";

export type ExamLive = {
  store: CandidateStore;
  /** Bumps at most once per flush of the store: the rows' memo key. */
  version: number;
  streamState: StreamState;
  /** The server's clock now, moved on every second. */
  now: number;
  isSnapshotLoaded: boolean;
  snapshotError: Error | null;
};

/**
 * The live rows of one exam: the events stream is opened first, the snapshot read once it is ready (or has
 * failed), so nothing sent between the two is lost — the store keeps whichever facts are newer. A `resync`,
 * or a reconnection that could not resume, refetches the snapshot through React Query.
 */
export function useExamLive(examId: string): ExamLive {
  const queryClient = useQueryClient();
  const [store] = useState(() => new CandidateStore());
  const [isSettled, setSettled] = useState(false);
  const [stream] = useState(
    () =>
      new ExamEventStream({
        url: examEventsUrl(examId),
        store,
        onSettled: () => setSettled(true),
        onResync: () => void queryClient.invalidateQueries({ queryKey: proctorKeys.candidates(examId) }),
      }),
  );

  // Subscribing to an external system (the stream), not loading data: the snapshot is a query below.
  useEffect(() => {
    stream.start();
    return () => stream.stop();
  }, [stream]);

  const snapshot = useQuery({
    queryKey: proctorKeys.candidates(examId),
    enabled: isSettled,
    staleTime: Infinity,
    // The rows live in the store (merged with events by observedAt); the cache keeps only the summary.
    queryFn: async () => {
      const result = await fetchCandidatesSnapshot(examId);
      store.replaceAll(result.candidates, result.serverTime);
      return { serverTime: result.serverTime, count: result.candidates.length };
    },
  });

  const version = useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);
  const streamState = useSyncExternalStore(stream.subscribe, stream.getState, stream.getState);
  const now = useServerNow(store);

  return {
    store,
    version,
    streamState,
    now,
    isSnapshotLoaded: snapshot.isSuccess,
    snapshotError: snapshot.error,
  };
}

/**
 * The server's time to the second, re-read every second: what makes "unreachable after 45 s" happen without
 * a message. 0 while rendering on the server, so the first client render matches the HTML.
 */
function useServerNow(store: CandidateStore): number {
  const [clock] = useState(() => ({
    subscribe: (onTick: () => void) => {
      const timer = setInterval(onTick, 1_000);
      return () => clearInterval(timer);
    },
    // Whole seconds, so two reads within one render agree.
    read: () => Math.floor(store.serverNow() / 1_000) * 1_000,
    readOnServer: () => 0,
  }));
  return useSyncExternalStore(clock.subscribe, clock.read, clock.readOnServer);
}
