import { describe, expect, it } from "vitest";

import { describeExamHealth } from "@/lib/shared/proctor/describe-exam-health";
import type { CandidateStatus } from "@/lib/shared/proctor/live-status";
import type { ExamHealth, TimelineEntry } from "@/lib/shared/schemas/proctor";
import { examHealth, healthPoint } from "@/test-support/shared/exam-health";
import { translatorFor } from "@/test-support/shared/translator";

import { formatTimeLeft, proctorWords } from "./describe";

function wordsIn(locale: "en" | "zh-CN", timeZone = "UTC") {
  return proctorWords(translatorFor(locale, "proctor"), locale, timeZone);
}

const en = wordsIn("en");
const zh = wordsIn("zh-CN", "Asia/Shanghai");

const quiet: CandidateStatus = {
  connection: "offline",
  sync: "pending",
  pending: 3,
  oldestPendingMs: 95_000,
  lastSeenAt: 0,
  timeLeftMs: 600_000,
  isAtRisk: true,
  atRiskReason: { code: "quietWithPending", pending: 3, connection: "offline", forMs: 151_000 },
  devicesUsed: 1,
  devices: [
    { deviceId: "d", connection: "offline", quietSince: 1_000, pending: 3, oldestPendingMs: 95_000, isFailing: false },
  ],
  isExtensionAcknowledged: null,
};

describe("the dashboard's words", () => {
  it("says why a candidate is at risk, each duration kept on one line", () => {
    expect(en.riskReason(quiet.atRiskReason!)).toBe(
      "3 unsynced edits on a device offline for 2\u00a0min\u00a031\u00a0s",
    );
    expect(en.riskReason({ code: "pendingNearDeadline", pending: 1, timeLeftMs: 45_000 })).toBe(
      "1 unsynced edit with 45\u00a0s left",
    );
    expect(en.riskReason({ code: "noContact", forMs: 90_000 })).toBe(
      "no contact for 1\u00a0min\u00a030\u00a0s: anything typed since is only on the device",
    );
    expect(en.riskReason({ code: "pendingTooLong", forMs: 130_000 })).toBe(
      "unsynced work for 2\u00a0min\u00a010\u00a0s",
    );
    expect(zh.riskReason(quiet.atRiskReason!)).toBe("设备离线已 2\u00a0分\u00a031\u00a0秒，有 3 条作答未同步");
    expect(zh.riskReason({ code: "noContact", forMs: 40_000 })).toBe("已失联 40\u00a0秒：此后输入的内容只在设备上");
  });

  it("says how long a device has been quiet and how much waits", () => {
    expect(en.connection(quiet, 13_000).text).toBe("Offline 12 s");
    expect(zh.connection(quiet, 13_000).text).toBe("离线 12 秒");
    expect(en.sync(quiet).text).toBe("3 pending · 1 min");
    expect(zh.sync(quiet).text).toBe("3 条待同步 · 1 分钟");
    expect(en.age(3_900_000)).toBe("1 h 05 min");
    expect(zh.age(3_900_000)).toBe("1 小时 05 分");
    expect(en.phase({ phase: "submitted", submissionSource: "proctor" })).toBe("Submitted by proctor");
    expect(zh.phase({ phase: "auto_submitted", submissionSource: "auto" })).toBe("已自动提交");
  });

  it("writes a length of time precisely, and the same in the API's English lines", () => {
    expect(en.duration(600_000)).toBe("10 min");
    expect(en.duration(5_400_000)).toBe("1 h 30 min");
    expect(en.duration(125_000)).toBe("2 min 5 s");
    expect(en.duration(400)).toBe("0 s");
  });

  it("writes times of day 24-hour in the screen's zone", () => {
    const at = Date.UTC(2026, 11, 1, 13, 5, 9);
    expect(en.clock(at)).toBe("13:05:09");
    expect(zh.clock(at)).toBe("21:05:09");
  });

  it("writes time left as m:ss, and h:mm:ss from an hour", () => {
    expect(formatTimeLeft(59_999)).toBe("0:59");
    expect(formatTimeLeft(3_600_000)).toBe("1:00:00");
  });
});

function figures(words: typeof en, value: ExamHealth) {
  return Object.fromEntries(
    describeExamHealth(value).map((figure) => [
      figure.key,
      { value: words.healthValue(figure.value), detail: words.healthDetail(figure.detail) },
    ]),
  );
}

describe("the exam's health in words", () => {
  it("is quiet before anything happened", () => {
    const quietHealth = figures(en, examHealth());
    expect(quietHealth.loss).toEqual({ value: "—", detail: "No submissions yet." });
    expect(quietHealth.autosave).toEqual({ value: "—", detail: "No autosaves in the last hour." });
    expect(quietHealth.rateLimited).toEqual({ value: "0", detail: "No request was turned away." });
    expect(figures(zh, examHealth()).loss).toEqual({ value: "—", detail: "尚无提交。" });
  });

  it("names lost answers, repeats and slow requests", () => {
    const value = examHealth({
      submissions: 500,
      digestMismatches: 2,
      attemptsWithLateAnswers: 1,
      lossRate: 3 / 500,
      duplicateRate: 4 / 40,
      autosaveP99Ms: 38,
      submitP99Ms: 1_500,
      rateLimited: 12,
      series: [healthPoint({ submits: 40, replays: 3 })],
    });
    const words = figures(en, value);
    expect(words.loss).toEqual({
      value: "0.6%",
      detail: "2 submissions differ from the device (0.4%); 1 candidate has late answers.",
    });
    expect(words.duplicates).toEqual({
      value: "10%",
      detail: "4 of 40 submits were repeats, answered with the same receipt.",
    });
    expect(words.autosave).toEqual({ value: "38 ms", detail: "99 in 100 saves answered within 38 ms." });
    expect(words.submit).toEqual({ value: "1.5 s", detail: "Slow: 1 in 100 submits took longer than 1.5 s." });
    expect(words.rateLimited!.detail).toBe(
      "12 requests were asked to retry later; the work waits safely on the device.",
    );
    expect(figures(en, examHealth({ submissions: 480, lossRate: 0 })).loss!.detail).toBe(
      "No answers lost in 480 submissions.",
    );
    expect(en.percent(0.0001)).toBe("< 0.1%");
    const chinese = figures(zh, value);
    expect(chinese.loss!.detail).toBe("2 份提交与设备上的不一致（0.4%）；1 名考生有逾期作答。");
    expect(chinese.submit).toEqual({ value: "1.5 秒", detail: "较慢：1% 的提交耗时超过 1.5 秒。" });
  });
});

describe("the timeline in words", () => {
  const entry = <Kind extends TimelineEntry["kind"]>(
    kind: Kind,
    facts: Extract<TimelineEntry, { kind: Kind }>["facts"],
  ) => ({ at: 0, kind, text: "", facts }) as TimelineEntry;

  it("says in English what the server's line says", () => {
    expect(en.timelineLine(entry("joined", { browser: "Chrome", os: "Windows", userAgent: null }))).toBe(
      "Joined on Chrome on Windows.",
    );
    expect(en.timelineLine(entry("joined", { browser: null, os: null, userAgent: null }))).toBe(
      "Joined on an unknown browser.",
    );
    expect(en.timelineLine(entry("offline", { device: "laptop", cause: "reported" }))).toBe(
      "Device laptop went offline (it said so).",
    );
    expect(en.timelineLine(entry("online", { device: "laptop", offlineMs: 125_000 }))).toBe(
      "Device laptop back online after 2 min 5 s.",
    );
    expect(en.timelineLine(entry("saves", { count: 3, device: "phone" }))).toBe("Saved 3 answers from device phone.");
    expect(
      en.timelineLine(
        entry("extended", { seconds: 600, by: "Ada Lovelace", reason: "fire alarm", isWaitingForStart: false }),
      ),
    ).toBe("+10 min by Ada Lovelace: fire alarm");
    expect(
      en.timelineLine(
        entry("submitted", {
          source: "proctor",
          forcedBy: "Pat",
          forcedReason: "left the room",
          isDigestMismatch: false,
        }),
      ),
    ).toBe("Force-submitted by Pat: left the room.");
    expect(en.timelineLine(entry("late_answer", { position: 4, device: "phone", via: "export" }))).toBe(
      "Late answer to question 4 from device phone (via emergency file); kept aside, not applied.",
    );
    expect(
      en.timelineLine(entry("late_answer_decided", { position: 4, decision: "accepted", by: "Ada", reason: "" })),
    ).toBe("Ada accepted the late answer to question 4 into the result.");
    expect(
      en.timelineLine(
        entry("late_answer_decided", { position: 2, decision: "rejected", by: "Ada", reason: "sent after the bell" }),
      ),
    ).toBe("Ada rejected the late answer to question 2. Reason: sent after the bell");
  });

  it("says it in Chinese", () => {
    expect(zh.timelineLine(entry("joined", { browser: "Safari", os: "iOS", userAgent: null }))).toBe(
      "通过 iOS 上的 Safari 加入。",
    );
    expect(
      zh.timelineLine(
        entry("submitted", { source: "auto", forcedBy: null, forcedReason: null, isDigestMismatch: true }),
      ),
    ).toBe("截止时间到，已自动提交。设备上的副本与服务器锁定的答卷不一致（摘要不符）。");
    expect(
      zh.timelineLine(
        entry("late_answer_decided", { position: 3, decision: "accepted", by: "王老师", reason: "停电，已核实" }),
      ),
    ).toBe("王老师 接受了第 3 题的逾期作答，计入成绩。理由：停电，已核实");
    expect(
      zh.timelineLine(
        entry("late_answer_decided", { position: null, decision: "rejected", by: "王老师", reason: "铃响后才发出" }),
      ),
    ).toBe("王老师 驳回了一道题的逾期作答。理由：铃响后才发出");
  });
});
