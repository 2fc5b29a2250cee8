import { formatClock, formatNumber, formatPercent } from "@/lib/shared/format";
import type { Translate } from "@/lib/shared/i18n/translate";
import type { HealthDetail, HealthValue } from "@/lib/shared/proctor/describe-exam-health";
import type { AtRiskReason, CandidateStatus } from "@/lib/shared/proctor/live-status";
import type { CandidateFacts, TimelineEvent } from "@/lib/shared/schemas/proctor";

// The words of the dashboard: every colour on the page sits next to one of these sentences. The server
// sends facts (codes and numbers); they are worded here, in the reader's language, from the `proctor`
// messages (messages/<locale>/proctor.json), and every time is shown in the screen's one time zone.
// The server words its timeline's English `text` (for API clients) here too, over the English catalog.

export type Tone = "ok" | "warn" | "bad" | "muted";

export type ProctorWords = ReturnType<typeof proctorWords>;

/** Keeps a duration on one line ("2 min 31 s" never ends a line on "31"). */
const keepTogether = (text: string) => text.replace(/ /g, "\u00a0");

/** Since when every device has been quiet: the latest quiet start (the candidate was reachable until then). */
function candidateQuietSince(status: CandidateStatus): number | null {
  const starts = status.devices.map((device) => device.quietSince);
  if (starts.length === 0 || starts.some((since) => since === null)) return null;
  return Math.max(...(starts as number[]));
}

/** Time left as m:ss, and h:mm:ss from an hour: the same digits in every language. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(hours > 0 ? 2 : 1, "0")}:${String(seconds).padStart(2, "0")}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

/** The dashboard's words in one locale and time zone, from a translator of the `proctor` namespace. */
export function proctorWords(t: Translate, locale: string, timeZone: string) {
  const number = (value: number, digits = 0) => formatNumber(value, locale, digits);

  /**
   * How long ago, coarse, for values that change every second: "12 s", "3 min", "1 h 05 min" (the words of
   * `duration`, rounded to what changes slowly enough to read).
   */
  const age = (ms: number): string => {
    const seconds = Math.max(0, Math.round(ms / 1000));
    if (seconds < 60) return t("duration.seconds", { seconds: number(seconds) });
    const minutes = Math.floor(seconds / 60);
    if (minutes < 60) return t("duration.minutes", { minutes: number(minutes) });
    return t("duration.hoursMinutes", {
      hours: number(Math.floor(minutes / 60)),
      minutes: String(minutes % 60).padStart(2, "0"),
    });
  };

  /** A length of time, precise: "45 s", "2 min 5 s", "10 min", "1 h 30 min". */
  const duration = (ms: number): string => {
    const total = Math.max(0, Math.round(ms / 1000));
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = total % 60;
    if (hours > 0) {
      return minutes > 0
        ? t("duration.hoursMinutes", { hours: number(hours), minutes: number(minutes) })
        : t("duration.hours", { hours: number(hours) });
    }
    if (minutes > 0) {
      return seconds > 0
        ? t("duration.minutesSeconds", { minutes: number(minutes), seconds: number(seconds) })
        : t("duration.minutes", { minutes: number(minutes) });
    }
    return t("duration.seconds", { seconds: number(seconds) });
  };

  const clock = (epochMs: number): string => formatClock(epochMs, locale, timeZone);

  /** "42 ms", "1.2 s". */
  const milliseconds = (ms: number): string =>
    ms < 1_000
      ? t("units.ms", { value: number(Math.round(ms)) })
      : t("units.s", { value: number(ms / 1_000, ms < 10_000 ? 1 : 0) });

  const percent = (ratio: number): string => {
    if (ratio > 0 && ratio * 100 < 0.05) return t("units.lessThan", { value: formatPercent(0.001, locale) });
    return formatPercent(ratio, locale, ratio * 100 >= 10 ? 0 : 1);
  };

  return {
    locale,
    timeZone,
    number,
    age,
    duration,
    clock,
    milliseconds,
    percent,
    timeLeft: formatTimeLeft,

    connection(status: CandidateStatus, now: number): { text: string; tone: Tone } {
      const quietSince = candidateQuietSince(status);
      switch (status.connection) {
        case "online":
          return { text: t("connection.online"), tone: "ok" };
        case "offline":
          return {
            text:
              quietSince === null
                ? t("connection.offline")
                : t("connection.offlineFor", { age: age(now - quietSince) }),
            tone: "warn",
          };
        case "unreachable":
          return {
            text:
              quietSince === null
                ? t("connection.unreachable")
                : t("connection.unreachableFor", { age: age(now - quietSince) }),
            tone: "bad",
          };
        case "never":
          return { text: t("connection.never"), tone: "muted" };
      }
    },

    sync(status: CandidateStatus): { text: string; tone: Tone } {
      const count = number(status.pending);
      switch (status.sync) {
        case "synced":
          return { text: t("sync.synced"), tone: "ok" };
        case "pending":
          return {
            text:
              status.oldestPendingMs === null
                ? t("sync.pending", { count })
                : t("sync.pendingFor", { count, age: age(status.oldestPendingMs) }),
            tone: "warn",
          };
        case "failing":
          return { text: t("sync.failing", { count }), tone: "bad" };
        case "unknown":
          // Quiet devices last said nothing was waiting; anything typed since is on the device only.
          return { text: t("sync.unknown"), tone: "warn" };
        case "none":
          return { text: "—", tone: "muted" };
      }
    },

    phase(facts: Pick<CandidateFacts, "phase" | "submissionSource">): string {
      if (facts.phase === "submitted" && facts.submissionSource === "proctor") return t("phase.submittedByProctor");
      return t(`phase.${facts.phase}`);
    },

    riskReason(reason: AtRiskReason): string {
      switch (reason.code) {
        case "quietWithPending":
          return t("risk.quietWithPending", {
            pending: reason.pending,
            connection: reason.connection,
            duration: keepTogether(duration(reason.forMs)),
          });
        case "noContact":
          return t("risk.noContact", { duration: keepTogether(duration(reason.forMs)) });
        case "pendingNearDeadline":
          return t("risk.pendingNearDeadline", {
            pending: reason.pending,
            duration: keepTogether(duration(reason.timeLeftMs)),
          });
        case "pendingTooLong":
          return t("risk.pendingTooLong", { duration: keepTogether(duration(reason.forMs)) });
      }
    },

    healthValue(value: HealthValue): string {
      switch (value.kind) {
        case "none":
          return "—";
        case "percent":
          return percent(value.ratio);
        case "ms":
          return milliseconds(value.ms);
        case "count":
          return number(value.count);
      }
    },

    healthDetail(detail: HealthDetail): string {
      switch (detail.code) {
        case "lossMismatch":
        case "lossBoth":
          return t(`health.detail.${detail.code}`, {
            mismatches: detail.mismatches,
            percent: percent(detail.mismatchRatio),
            candidates: detail.code === "lossBoth" ? detail.candidates : 0,
          });
        case "autosaveFast":
        case "autosaveSlow":
        case "submitFast":
        case "submitSlow":
          return t(`health.detail.${detail.code}`, { duration: milliseconds(detail.ms) });
        case "repeats":
          return t("health.detail.repeats", { repeats: number(detail.repeats), submits: detail.submits });
        default: {
          const { code, ...values } = detail;
          return t(`health.detail.${code}`, values);
        }
      }
    },

    /** One line of the candidate's timeline, from its facts; the server's English line if the kind is new. */
    timelineLine(entry: TimelineEvent): string {
      switch (entry.kind) {
        case "enrolled":
        case "started":
          return t(`timeline.${entry.kind}`);
        case "joined": {
          const { browser, os, userAgent } = entry.facts;
          const what =
            browser && os
              ? t("timeline.browserOnOs", { browser, os })
              : (browser ?? os ?? userAgent ?? t("timeline.unknownBrowser"));
          return t("timeline.joined", { what });
        }
        case "device_first_seen":
          return t("timeline.deviceFirstSeen", { device: entry.facts.device });
        case "device_switch":
          return t("timeline.deviceSwitch", entry.facts);
        case "offline":
          return t("timeline.offline", { device: entry.facts.device, cause: entry.facts.cause ?? "other" });
        case "online":
          return t("timeline.online", { device: entry.facts.device, duration: duration(entry.facts.offlineMs) });
        case "saves":
          return entry.facts.device === null
            ? t("timeline.saves", { count: entry.facts.count })
            : t("timeline.savesFrom", { count: entry.facts.count, device: entry.facts.device });
        case "extended": {
          const values = {
            duration: duration(entry.facts.seconds * 1000),
            by: entry.facts.by,
            reason: entry.facts.reason,
          };
          return t(entry.facts.isWaitingForStart ? "timeline.extendedWaiting" : "timeline.extended", values);
        }
        case "extension_acknowledged": {
          const values = { duration: duration(entry.facts.seconds * 1000) };
          return entry.facts.device === null
            ? t("timeline.acknowledged", values)
            : t("timeline.acknowledgedBy", { ...values, device: entry.facts.device });
        }
        case "submitted": {
          const { source, forcedBy, forcedReason, isDigestMismatch } = entry.facts;
          const line =
            source === "proctor" && forcedBy
              ? forcedReason
                ? t("timeline.forcedByWithReason", { by: forcedBy, reason: forcedReason })
                : t("timeline.forcedBy", { by: forcedBy })
              : t(`timeline.submitted.${source}`);
          return isDigestMismatch ? `${line}${t("timeline.digestMismatch")}` : line;
        }
        case "late_answer": {
          const values = { device: entry.facts.device, via: entry.facts.via };
          return entry.facts.position === null
            ? t("timeline.lateAnswer", values)
            : t("timeline.lateAnswerTo", { ...values, position: entry.facts.position });
        }
        case "late_answer_decided": {
          const { position, decision, by, reason } = entry.facts;
          const line = t("timeline.lateAnswerDecided", { decision, by, position: position ?? 0 });
          return reason === "" ? line : t("timeline.withReason", { line, reason });
        }
        case "reopened":
          return t("timeline.reopened", {
            by: entry.facts.by,
            reason: entry.facts.reason,
            version: entry.facts.version,
            duration: duration(entry.facts.seconds * 1000),
          });
        default:
          return (entry as { text: string }).text;
      }
    },
  };
}
