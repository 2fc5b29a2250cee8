import { describe, expect, it } from "vitest";

import { TIMELINE_KINDS, type TimelineEntry } from "@/lib/shared/schemas/proctor";

import { CandidateTimelineSchema } from "./proctor";

// The dashboard reads a candidate's timeline through the schema its route documents: every kind's facts as the
// server builds them (TimelineFacts) pass, facts of another kind's shape do not.

const AT = Date.parse("2026-12-01T09:30:00Z");

const ENTRIES = [
  { at: AT, kind: "enrolled", facts: {}, text: "Enrolled." },
  { at: AT, kind: "joined", facts: { browser: "Firefox", os: "Linux", userAgent: null }, text: "Joined." },
  { at: AT, kind: "started", facts: {}, text: "Started." },
  { at: AT, kind: "device_first_seen", facts: { device: "laptop" }, deviceId: "laptop", text: "First seen." },
  { at: AT, kind: "device_switch", facts: { device: "phone", previousDevice: "laptop" }, text: "Switched." },
  { at: AT, kind: "offline", facts: { device: "laptop", cause: null }, until: null, text: "Offline." },
  { at: AT, kind: "online", facts: { device: "laptop", offlineMs: 1_500 }, text: "Online." },
  { at: AT, kind: "saves", facts: { count: 3, device: null }, until: AT + 50_000, text: "Saved 3." },
  {
    at: AT,
    kind: "extended",
    facts: { seconds: 600, by: "Pat", reason: "fire alarm", isWaitingForStart: false },
    text: "+10 min.",
  },
  { at: AT, kind: "extension_acknowledged", facts: { device: "laptop", seconds: 600 }, text: "Acknowledged." },
  {
    at: AT,
    kind: "submitted",
    facts: { source: "proctor", forcedBy: "Pat", forcedReason: null, isDigestMismatch: false },
    text: "Force-submitted.",
  },
  { at: AT, kind: "late_answer", facts: { position: 2, device: "phone", via: "export" }, text: "Late answer." },
  {
    at: AT,
    kind: "late_answer_decided",
    facts: { position: null, decision: "rejected", by: "Ada", reason: "after the bell" },
    text: "Rejected.",
  },
  {
    at: AT,
    kind: "reopened",
    facts: { by: "Ada", reason: "power cut", seconds: 900, version: 1 },
    text: "Reopened.",
  },
] satisfies TimelineEntry[];

const timeline = (entries: unknown[]) => ({
  enrollmentId: "0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e",
  serverTime: AT,
  entries,
});

describe("CandidateTimelineSchema", () => {
  it("reads an entry of every kind with its facts", () => {
    expect(ENTRIES.map((entry) => entry.kind)).toEqual([...TIMELINE_KINDS]);
    const parsed = CandidateTimelineSchema.safeParse(timeline(ENTRIES));
    expect(parsed.error).toBeUndefined();
    expect(parsed.data?.entries).toEqual(ENTRIES);
  });

  it("refuses facts that are not those of the entry's kind, and a kind it does not know", () => {
    expect(
      CandidateTimelineSchema.safeParse(timeline([{ at: AT, kind: "online", facts: { count: 3 }, text: "" }])).success,
    ).toBe(false);
    expect(
      CandidateTimelineSchema.safeParse(timeline([{ at: AT, kind: "teleported", facts: {}, text: "" }])).success,
    ).toBe(false);
  });
});
