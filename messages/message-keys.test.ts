import { describe, expect, it } from "vitest";

import { MESSAGES } from "./index";
import { messageKeyFinder } from "./message-keys";

const messageKeysIn = messageKeyFinder(MESSAGES.en);

describe("messageKeysIn", () => {
  it("finds a key next-intl fell back to, alone or inside a sentence, in either language", () => {
    expect(messageKeysIn("exam.countdown.short.announcement")).toEqual(["exam.countdown.short.announcement"]);
    expect(messageKeysIn("剩余时间 exam.countdown.short.announcement。")).toEqual([
      "exam.countdown.short.announcement",
    ]);
    expect(messageKeysIn("Status: webhooks.endpoints.breakerText.closed, then exam.pause.title.")).toEqual([
      "webhooks.endpoints.breakerText.closed",
      "exam.pause.title",
    ]);
    expect(messageKeysIn("时间到exam.countdown.short.announcement")).toEqual(["exam.countdown.short.announcement"]);
  });

  it("leaves addresses, URLs, file names and ordinary words alone", () => {
    const ordinary = [
      "https://exam.example.org/join/abc",
      "results.csv and exam.pdf",
      "ada@exam.example.org",
      "Networking 101 — final exam. Common.",
      "exam.example.org",
      "staff/exam.zip",
      "a common.mistake-free text",
      "exam.missingTopLevelName is not in the catalogue",
    ];
    for (const text of ordinary) expect(messageKeysIn(text), text).toEqual([]);
  });
});
