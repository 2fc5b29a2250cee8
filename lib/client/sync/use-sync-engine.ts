"use client";

import { useEffect, useMemo, useState, useSyncExternalStore } from "react";

import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";

import type { AnnouncementInbox } from "./announcements";
import { SyncEngine, type SyncEngineOptions } from "./sync-engine";
import type { EditResult, SyncSnapshot } from "./sync-state";

export type UseSyncEngineOptions = {
  attemptId: string;
  /** The attempt as the server rendered it: the first paint, before the device's store is read. */
  initialView: AttemptView | null;
  /** Tests and benchmarks only: everything else the engine takes. */
  engineOptions?: Omit<SyncEngineOptions, "attemptId" | "initialView">;
};

export type UseSyncEngineResult = {
  state: SyncSnapshot;
  edit: (questionId: string, value: AnswerValue) => Promise<EditResult>;
  toggleFlag: (questionId: string) => Promise<void>;
  submit: () => Promise<SyncSnapshot>;
  flushNow: () => Promise<void>;
  /** Staff's announcements on this device (read with useSyncExternalStore). */
  announcements: AnnouncementInbox;
};

/**
 * The exam page's handle on its attempt's sync engine: one engine per attempt and tab, started when the
 * component mounts and stopped (handing the sync role to another tab) when it unmounts. State comes through
 * useSyncExternalStore, so every render sees one consistent snapshot; the server render and hydration use
 * the snapshot built from `initialView`.
 */
export function useSyncEngine({ attemptId, initialView, engineOptions }: UseSyncEngineOptions): UseSyncEngineResult {
  const [engine, setEngine] = useState(() => new SyncEngine({ ...engineOptions, attemptId, initialView }));
  if (engine.attemptId !== attemptId) {
    // Another attempt in the same component: a new engine (React re-renders at once with it).
    setEngine(new SyncEngine({ ...engineOptions, attemptId, initialView }));
  }

  useEffect(() => {
    void engine.start();
    return () => engine.stop();
  }, [engine]);

  const state = useSyncExternalStore(engine.subscribe, engine.getSnapshot, engine.getSnapshot);

  return useMemo(
    () => ({
      state,
      edit: engine.edit,
      toggleFlag: engine.toggleFlag,
      submit: engine.submit,
      flushNow: engine.flushNow,
      announcements: engine.announcements,
    }),
    [state, engine],
  );
}
