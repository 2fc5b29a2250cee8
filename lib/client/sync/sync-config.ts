import { BREAKER_DEFAULTS, type BreakerOptions } from "@/lib/shared/backoff";

/**
 * The sync engine's timings and sizes, apart from the engine so the load harness's simulated candidates
 * (bench/lib/candidates/sim-candidate.ts) run with the same numbers without loading IndexedDB code.
 */
export type SyncConfig = {
  /** Send this long after the last edit. */
  debounceMs: number;
  heartbeatMs: number;
  /** Change-triggered heartbeats are coalesced to at most one per this gap. */
  heartbeatMinGapMs: number;
  /** While anything is pending or failing, flush at least this often, whatever the events say. */
  probeMs: number;
  /** A tab that becomes visible re-reads the server if its last merge is older than this. */
  remergeAfterMs: number;
  requestTimeoutMs: number;
  submitTimeoutMs: number;
  /** An autosave body stays under this many bytes (the server refuses 1 MB); the rest goes in the next request. */
  maxDeltaBytes: number;
  /** Browsers cap keepalive bodies (64 KiB in total); a page-hide flush sends only what fits. */
  keepaliveMaxBytes: number;
  breaker: BreakerOptions;
};

export const DEFAULT_SYNC_CONFIG: SyncConfig = {
  debounceMs: 1_500,
  heartbeatMs: 15_000,
  heartbeatMinGapMs: 5_000,
  probeMs: 10_000,
  remergeAfterMs: 30_000,
  requestTimeoutMs: 20_000,
  submitTimeoutMs: 30_000,
  maxDeltaBytes: 512 * 1024,
  keepaliveMaxBytes: 60 * 1024,
  breaker: BREAKER_DEFAULTS,
};
