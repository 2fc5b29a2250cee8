import "server-only";

import { TIMELINE_KINDS, type TimelineEntry } from "@/lib/shared/schemas/proctor";

/** A device id as a proctor reads it: short ids whole, long ones (generated UUIDs) by their first 8 characters. */
export function deviceShortId(deviceId: string): string {
  return deviceId.length > 12 ? deviceId.slice(0, 8) : deviceId;
}

export function deviceLabel(deviceId: string): string {
  return `device ${deviceShortId(deviceId)}`;
}

/**
 * The browser and system named in a user agent, as far as they are recognised; the user agent itself
 * (shortened) when neither is, and null when there is none.
 */
export function parseUserAgent(userAgent: string | null | undefined): {
  browser: string | null;
  os: string | null;
  userAgent: string | null;
} {
  if (!userAgent) return { browser: null, os: null, userAgent: null };
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\/|Opera/.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrome\/|Chromium\/|CriOS\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : null;
  const os = /iPhone|iPad|iPod/.test(userAgent)
    ? "iOS"
    : /Android/.test(userAgent)
      ? "Android"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /CrOS/.test(userAgent)
            ? "ChromeOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : null;
  if (browser ?? os) return { browser, os, userAgent: null };
  return { browser, os, userAgent: userAgent.length > 60 ? `${userAgent.slice(0, 57)}…` : userAgent };
}

/** "Chrome on Windows", from a user agent; "an unknown browser" when there is none. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const parsed = parseUserAgent(userAgent);
  if (parsed.browser && parsed.os) return `${parsed.browser} on ${parsed.os}`;
  return parsed.browser ?? parsed.os ?? parsed.userAgent ?? "an unknown browser";
}

/** "10 min", "1 h 30 min", "45 s", "2 min 5 s". */
export function formatDuration(milliseconds: number): string {
  const total = Math.max(0, Math.round(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0) parts.push(`${minutes} min`);
  if (seconds > 0 && hours === 0) parts.push(`${seconds} s`);
  return parts.length > 0 ? parts.join(" ") : "0 s";
}

/** Who gave an extension, without the email the actor label may carry ("Ada Lovelace <ada@…>"). */
export function actorName(actorLabel: string): string {
  return actorLabel.replace(/\s*<[^>]*>\s*$/, "").trim() || actorLabel;
}

const KIND_ORDER = new Map(TIMELINE_KINDS.map((kind, index) => [kind, index]));

/** Oldest first; at the same instant, in the order of TIMELINE_KINDS (enrolled before joined before started…). */
export function sortTimeline(entries: TimelineEntry[]): TimelineEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        a.entry.at - b.entry.at ||
        (KIND_ORDER.get(a.entry.kind) ?? 0) - (KIND_ORDER.get(b.entry.kind) ?? 0) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}

export type DeviceActivity = { at: number; deviceId: string };

/**
 * Device switches from what the server keeps: each stored answer's last save (answers keep only the latest
 * value of a question, so earlier saves are gone) and each device's first and latest heartbeat. In time
 * order, a point from another device than the one before is a switch. Two devices used side by side show
 * as switches back and forth, which is what happened as far as the server can tell.
 */
export function deviceSwitches(activity: readonly DeviceActivity[]): TimelineEntry[] {
  const ordered = [...activity].sort((a, b) => a.at - b.at);
  const entries: TimelineEntry[] = [];
  let current: string | null = null;
  for (const point of ordered) {
    if (current !== null && point.deviceId !== current) {
      entries.push({
        at: point.at,
        kind: "device_switch",
        text: `Switched to ${deviceLabel(point.deviceId)} (was on ${deviceLabel(current)}).`,
        facts: { device: deviceShortId(point.deviceId), previousDevice: deviceShortId(current) },
        deviceId: point.deviceId,
      });
    }
    current = point.deviceId;
  }
  return entries;
}

export type SavedAnswer = { savedAt: number; deviceId: string };

/** Stored answers grouped per minute and device: "Saved 3 answers", from the first to the last save of it. */
export function groupSaves(saves: readonly SavedAnswer[], hasSeveralDevices: boolean): TimelineEntry[] {
  const groups = new Map<string, { first: number; last: number; count: number; deviceId: string }>();
  for (const save of saves) {
    const key = `${Math.floor(save.savedAt / 60_000)}|${save.deviceId}`;
    const group = groups.get(key);
    if (group) {
      group.first = Math.min(group.first, save.savedAt);
      group.last = Math.max(group.last, save.savedAt);
      group.count += 1;
    } else {
      groups.set(key, { first: save.savedAt, last: save.savedAt, count: 1, deviceId: save.deviceId });
    }
  }
  return [...groups.values()].map((group) => ({
    at: group.first,
    kind: "saves" as const,
    text: `Saved ${group.count} ${group.count === 1 ? "answer" : "answers"}${hasSeveralDevices ? ` from ${deviceLabel(group.deviceId)}` : ""}.`,
    facts: { count: group.count, device: hasSeveralDevices ? deviceShortId(group.deviceId) : null },
    deviceId: group.deviceId,
    until: group.last,
  }));
}
