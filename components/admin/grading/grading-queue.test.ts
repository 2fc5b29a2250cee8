import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps, type FunctionComponent } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { GradingQueue, GradingQueueItem } from "@/lib/shared/schemas/grading";
import { MESSAGES } from "@/messages";

import { GradingQueueView } from "./grading-queue";

const item = (overrides: Partial<GradingQueueItem>): GradingQueueItem => ({
  attemptId: "00000000-0000-4000-8000-000000000001",
  candidateCode: "AAAA-BBBB",
  candidateName: null,
  value: "An answer.",
  lateAnswerId: null,
  source: "pending",
  reason: "essay",
  points: null,
  grades: {},
  ...overrides,
});

function render(queue: GradingQueue, locale: "en" | "zh-CN" = "en", startAt: string | null = null): string {
  const view = createElement(GradingQueueView, {
    examId: "00000000-0000-4000-8000-0000000000ee",
    initial: queue,
    startAt,
  });
  // The provider's props type wants `children` among the props; the element gets it as createElement's child.
  const Provider = NextIntlClientProvider as unknown as FunctionComponent<
    Omit<ComponentProps<typeof NextIntlClientProvider>, "children">
  >;
  return renderToStaticMarkup(createElement(Provider, { locale, messages: MESSAGES[locale], timeZone: "UTC" }, view));
}

const queue = (items: GradingQueueItem[], marker: GradingQueue["marker"] = "first"): GradingQueue => ({
  examId: "00000000-0000-4000-8000-0000000000ee",
  question: {
    id: "00000000-0000-4000-8000-0000000000aa",
    position: 7,
    type: "essay",
    prompt: "Why?",
    rubric: "",
    points: 5,
  },
  marker,
  secondMarking: marker !== "first",
  items,
});

describe("GradingQueueView", () => {
  it("shows a hostile answer as text, never as markup", () => {
    const html = render(queue([item({ value: '<img src=x onerror="alert(1)"><b>bold</b>' })]));
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
  });

  it("opens the first paper that waits, and lists every paper with its state", () => {
    const html = render(
      queue([
        item({
          attemptId: "00000000-0000-4000-8000-000000000001",
          candidateCode: "AAAA-0001",
          value: "   ",
          // Blank while its result is still being computed: blank, not waiting.
          source: "pending",
          reason: "not_scored_yet",
          points: null,
        }),
        item({
          attemptId: "00000000-0000-4000-8000-000000000002",
          candidateCode: "AAAA-0002",
          value: "Mine is marked.",
          grades: {
            first: { points: 2, comment: "ok", by: "Ada", revision: 1, updatedAt: "2026-12-01T00:00:00.000Z" },
          },
        }),
        item({ attemptId: "00000000-0000-4000-8000-000000000003", candidateCode: "AAAA-0003", value: "Waiting one." }),
      ]),
    );
    expect(html).toContain("Answer of AAAA-0003");
    expect(html).toContain("Waiting one.");
    expect(html).toMatch(/AAAA-0001<\/span><span[^>]*>blank</);
    expect(html).toMatch(/AAAA-0002<\/span><span[^>]*>marked</);
    expect(html).toMatch(/AAAA-0003<\/span><span[^>]*>waiting</);
    expect(html).toContain("This question has no rubric.");
  });

  it("settling: opens the paper asked for and shows both markers' marks side by side, in Chinese too", () => {
    const grades = {
      first: { points: 2, comment: "太简略。", by: "Ada", revision: 1, updatedAt: "2026-12-01T00:00:00.000Z" },
      second: { points: 4.5, comment: "", by: "Grace", revision: 1, updatedAt: "2026-12-01T00:00:00.000Z" },
    };
    const items = [
      item({ attemptId: "00000000-0000-4000-8000-000000000001", candidateCode: "AAAA-0001", reason: "disagreement" }),
      item({
        attemptId: "00000000-0000-4000-8000-000000000002",
        candidateCode: "AAAA-0002",
        reason: "disagreement",
        grades,
      }),
    ];
    const html = render(queue(items, "final"), "zh-CN", "00000000-0000-4000-8000-000000000002");
    expect(html).toContain("AAAA-0002 的作答");
    expect(html).toContain("2 分，评分人：Ada");
    expect(html).toContain("4.5 分，评分人：Grace");
    expect(html).toContain("太简略。");
    expect(html).toContain("无评语。");
  });
});
