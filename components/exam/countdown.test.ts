import { describe, expect, it } from "vitest";

import { translatorFor } from "@/test-support/shared/translator";

import { extensionParts, stageOf, warningThresholds } from "./countdown";

const MINUTE = 60_000;
const english = translatorFor("en");
const chinese = translatorFor("zh-CN");

/** The stage at each of these remaining times, for an exam of `totalMinutes`. */
function stages(totalMinutes: number, remainingMinutes: number[]) {
  const thresholds = warningThresholds(totalMinutes * MINUTE);
  return remainingMinutes.map((remaining) => stageOf(remaining * MINUTE, thresholds));
}

describe("time warnings, relative to the exam's length", () => {
  it("never warn at the first second: a 10-minute exam is not 'less than 10 minutes left' when it starts", () => {
    for (const total of [1, 2, 5, 10, 20, 40, 60, 180]) {
      expect(stages(total, [total - 1 / 60]), `${total} minutes`).toEqual(["plenty"]);
    }
  });

  it("warn in the last quarter at most: 10-minute exams at 2 minutes and at 1", () => {
    expect(warningThresholds(10 * MINUTE)).toEqual({ lowMs: 2 * MINUTE, lastMinuteMs: MINUTE });
    expect(stages(10, [9, 3, 2, 1.5, 1, 0.5, 0, -1])).toEqual([
      "plenty",
      "plenty",
      "low",
      "low",
      "last-minute",
      "last-minute",
      "over",
      "over",
    ]);
  });

  it("warn at 10 minutes from exams of 40 minutes, at 5 from 20 minutes, and only in the last minute below 8", () => {
    expect(warningThresholds(60 * MINUTE)).toEqual({ lowMs: 10 * MINUTE, lastMinuteMs: MINUTE });
    expect(warningThresholds(40 * MINUTE).lowMs).toBe(10 * MINUTE);
    expect(warningThresholds(39 * MINUTE).lowMs).toBe(5 * MINUTE);
    expect(warningThresholds(20 * MINUTE).lowMs).toBe(5 * MINUTE);
    expect(warningThresholds(8 * MINUTE).lowMs).toBe(2 * MINUTE);
    expect(warningThresholds(5 * MINUTE)).toEqual({ lowMs: null, lastMinuteMs: MINUTE });
    expect(stages(5, [4.5, 2, 1, 0.2])).toEqual(["plenty", "plenty", "last-minute", "last-minute"]);
  });

  it("leave very short exams with the clock alone, until time is up", () => {
    expect(warningThresholds(3 * MINUTE)).toEqual({ lowMs: null, lastMinuteMs: null });
    expect(stages(3, [2.5, 0.5, 0])).toEqual(["plenty", "plenty", "over"]);
  });

  it("count an extension in the length: a 10-minute exam extended to 50 warns at 10 minutes", () => {
    expect(stages(50, [12, 9])).toEqual(["plenty", "low"]);
  });

  it("say the warning in the candidate's language, with the minutes of the threshold", () => {
    expect(english("exam.countdown.low", { minutes: 2 })).toBe("Less than 2 minutes left.");
    expect(english("exam.countdown.low", { minutes: 10 })).toBe("Less than 10 minutes left.");
    expect(chinese("exam.countdown.low", { minutes: 5 })).toBe("剩余不到 5 分钟。");
  });
});

describe("the extension notice", () => {
  const say = (addedMs: number) => english("exam.countdown.extended", extensionParts(addedMs));

  it("says how much time the proctor gave, in minutes and seconds, never rounded up", () => {
    expect(say(600_000)).toBe("Your proctor gave you 10 more minutes.");
    expect(say(60_000)).toBe("Your proctor gave you 1 more minute.");
    expect(say(90_000)).toBe("Your proctor gave you 1 more minute and 30 seconds.");
    expect(say(45_000)).toBe("Your proctor gave you 45 more seconds.");
    expect(say(119_999)).toBe("Your proctor gave you 1 more minute and 59 seconds.");
  });

  it("in Chinese too", () => {
    const zh = (addedMs: number) => chinese("exam.countdown.extended", extensionParts(addedMs));
    expect(zh(600_000)).toBe("监考员为您延长了 10 分钟。");
    expect(zh(90_000)).toBe("监考员为您延长了 1 分钟 30 秒。");
    expect(zh(45_000)).toBe("监考员为您延长了 45 秒。");
  });
});
