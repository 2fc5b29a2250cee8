import "server-only";

import { deviceShortId } from "@/lib/shared/proctor/device-id";
import { TIMELINE_KINDS, type TimelineEvent } from "@/lib/shared/schemas/proctor";

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

/** Who gave an extension, without the email the actor label may carry ("Ada Lovelace <ada@…>"). */
export function actorName(actorLabel: string): string {
  return actorLabel.replace(/\s*<[^>]*>\s*$/, "").trim() || actorLabel;
}

const KIND_ORDER = new Map(TIMELINE_KINDS.map((kind, index) => [kind, index]));

/** Oldest first; at the same instant, in the order of TIMELINE_KINDS (enrolled before joined before started…). */
export function sortTimeline<Entry extends TimelineEvent>(entries: Entry[]): Entry[] {
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
export function deviceSwitches(activity: readonly DeviceActivity[]): TimelineEvent[] {
  const ordered = [...activity].sort((a, b) => a.at - b.at);
  const entries: TimelineEvent[] = [];
  let current: string | null = null;
  for (const point of ordered) {
    if (current !== null && point.deviceId !== current) {
      entries.push({
        at: point.at,
        kind: "device_switch",
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
export function groupSaves(saves: readonly SavedAnswer[], hasSeveralDevices: boolean): TimelineEvent[] {
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
    facts: { count: group.count, device: hasSeveralDevices ? deviceShortId(group.deviceId) : null },
    deviceId: group.deviceId,
    until: group.last,
  }));
}
