// How a simulated candidate (sim-candidate.ts, engine-candidate.ts) reaches a server: the request it sends,
// the transport that sends it, the API's paths, the browser's timings, and how a response counts in the
// figures.
import { classifySyncResponse } from "../../../lib/shared/backoff";
import { DEFAULT_SYNC_CONFIG } from "../../../lib/client/sync/sync-config";
import { errorCode, type HttpResult } from "../load/http-client";
import type { RequestKind } from "../load/op-stats";

export type Request = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
};
export type Transport = (request: Request) => Promise<HttpResult>;

/** The API's paths; the baseline server answers autosave and submit only, under other paths. */
export type ApiPaths = {
  answers(attemptId: string): string;
  submit(attemptId: string): string;
  heartbeat(attemptId: string): string;
};

export const APP_PATHS: ApiPaths = {
  answers: (id) => `/api/attempts/${id}/answers`,
  submit: (id) => `/api/attempts/${id}/submit`,
  heartbeat: (id) => `/api/attempts/${id}/heartbeat`,
};

export type SimTimings = {
  debounceMs: number;
  /** 0: no heartbeats. */
  heartbeatMs: number;
  requestTimeoutMs: number;
  submitTimeoutMs: number;
  /**
   * As the browser does (ADR 022): an autosave carries the device's status when half a heartbeat period has
   * passed since the last report, and the periodic heartbeat is sent only a whole period after the last report.
   * False: a heartbeat every period whatever the autosaves did (the client before ADR 022).
   */
  statusOnAutosave?: boolean;
};

export const BROWSER_TIMINGS: SimTimings = {
  debounceMs: DEFAULT_SYNC_CONFIG.debounceMs,
  heartbeatMs: DEFAULT_SYNC_CONFIG.heartbeatMs,
  requestTimeoutMs: DEFAULT_SYNC_CONFIG.requestTimeoutMs,
  submitTimeoutMs: DEFAULT_SYNC_CONFIG.submitTimeoutMs,
  statusOnAutosave: true,
};

/** How a response counts in the figures. */
export function requestKind(result: HttpResult): RequestKind | "unexpected" {
  const code = result.status === 0 ? null : (errorCode(result.body) ?? null);
  const kind = classifySyncResponse(result.status, code);
  if (kind === "ok") return "ok";
  if (result.status === 429 || code === "REQUEST_IN_PROGRESS") return "limited";
  if (kind === "retry") return "error";
  // 409 ALREADY_SUBMITTED / DEADLINE_PASSED: the contract's final answer for a frozen attempt (a stale
  // tab's edit after the submit, a retried submit that another key won): answered, not a fault.
  if (kind === "closed") return "ok";
  return "unexpected";
}
