import type { CandidateStatus } from "@/lib/shared/proctor/live-status";
import type { CandidateFacts } from "@/lib/shared/schemas/proctor";

// The words of the dashboard: every colour on the page sits next to one of these sentences.

export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

export function formatClock(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(hours > 0 ? 2 : 1, "0")}:${String(seconds).padStart(2, "0")}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

export type Tone = "ok" | "warn" | "bad" | "muted";

export function describeConnection(status: CandidateStatus, now: number): { text: string; tone: Tone } {
  const quietSince = candidateQuietSince(status);
  switch (status.connection) {
    case "online":
      return { text: "Online", tone: "ok" };
    case "offline":
      return { text: quietSince === null ? "Offline" : `Offline ${formatAge(now - quietSince)}`, tone: "warn" };
    case "unreachable":
      return { text: quietSince === null ? "Unreachable" : `Unreachable ${formatAge(now - quietSince)}`, tone: "bad" };
    case "never":
      return { text: "Not connected", tone: "muted" };
  }
}

/** Since when every device has been quiet: the latest quiet start (the candidate was reachable until then). */
function candidateQuietSince(status: CandidateStatus): number | null {
  const starts = status.devices.map((device) => device.quietSince);
  if (starts.length === 0 || starts.some((since) => since === null)) return null;
  return Math.max(...(starts as number[]));
}

export function describeSync(status: CandidateStatus): { text: string; tone: Tone } {
  switch (status.sync) {
    case "synced":
      return { text: "Synced", tone: "ok" };
    case "pending":
      return {
        text:
          status.oldestPendingMs === null
            ? `${status.pending} pending`
            : `${status.pending} pending · ${formatAge(status.oldestPendingMs)}`,
        tone: "warn",
      };
    case "failing":
      return { text: `Failing · ${status.pending} pending`, tone: "bad" };
    case "unknown":
      // Quiet devices last said nothing was waiting; anything typed since is on the device only.
      return { text: "Possibly pending", tone: "warn" };
    case "none":
      return { text: "—", tone: "muted" };
  }
}

export const PHASE_LABELS: Record<CandidateFacts["phase"], string> = {
  not_started: "Not started",
  in_progress: "In progress",
  submitted: "Submitted",
  auto_submitted: "Auto-submitted",
};

export function describePhase(facts: CandidateFacts): string {
  if (facts.phase === "submitted" && facts.submissionSource === "proctor") return "Submitted by proctor";
  return PHASE_LABELS[facts.phase];
}

/** A risk reason with each number kept on the line of its unit ("2 min 31 s" never ends a line on "31"). */
export function describeRiskReason(reason: string): string {
  return reason.replace(/(\d) (s|min)\b/g, "$1\u00a0$2");
}
