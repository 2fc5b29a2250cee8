"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";

import type { CandidatesSnapshot } from "@/lib/shared/schemas/proctor";

import { CandidateStore } from "./candidate-store";
import { ExamEventStream, type StreamState } from "./exam-event-stream";
import { examEventsUrl, fetchCandidatesSnapshot } from "./proctor-api";
import { proctorKeys } from "./query-keys";

export type ExamLive = {
  store: CandidateStore;
  /** Bumps at most once per flush of the store: the rows' memo key. */
  version: number;
  streamState: StreamState;
  /** The server's clock at the last flush (at least once a second); 0 before the first. */
  now: number;
  isSnapshotLoaded: boolean;
  snapshotError: Error | null;
  /** The whole exam's pause as of the last snapshot (refetched after a pause or resume from this page). */
  examPause: CandidatesSnapshot["examPause"];
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
        onAnnouncements: () => void queryClient.invalidateQueries({ queryKey: proctorKeys.announcements(examId) }),
      }),
  );

  // Subscribing to an external system (the stream), not loading data: the snapshot is a query below.
  // The clock's tick goes through the store's flush, so a tick and a flood of events make one pass.
  useEffect(() => {
    stream.start();
    const clock = setInterval(store.tick, 1_000);
    return () => {
      stream.stop();
      clearInterval(clock);
    };
  }, [stream, store]);

  const snapshot = useQuery({
    queryKey: proctorKeys.candidates(examId),
    enabled: isSettled,
    staleTime: Infinity,
    // The rows live in the store (merged with events by observedAt); the cache keeps only the summary.
    queryFn: async () => {
      const result = await fetchCandidatesSnapshot(examId);
      store.replaceAll(result.candidates, result.serverTime);
      return { serverTime: result.serverTime, count: result.candidates.length, examPause: result.examPause };
    },
  });

  const version = useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);
  const streamState = useSyncExternalStore(stream.subscribe, stream.getState, stream.getState);
  // The server's time to the second, read once per flush; 0 before the first flush, so the first client
  // render matches the server's HTML.
  const now = useMemo(() => (version === 0 ? 0 : Math.floor(store.serverNow() / 1_000) * 1_000), [store, version]);

  return {
    store,
    version,
    streamState,
    now,
    isSnapshotLoaded: snapshot.isSuccess,
    snapshotError: snapshot.error,
    examPause: snapshot.data?.examPause ?? null,
  };
}
