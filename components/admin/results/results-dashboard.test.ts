import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { ExamResultsView, ExamStatisticsView } from "@/lib/shared/schemas/statistics";
import { MESSAGES } from "@/messages";

import { refreshInterval, ResultsDashboard } from "./results-dashboard";

const examId = "0190f3a0-0000-7000-8000-000000000001";
const statistics: ExamStatisticsView = {
  examId,
  submitted: 3,
  scored: 2,
  waitingForPerson: 1,
  maxScore: 4,
  mean: 2.5,
  median: 2.5,
  standardDeviation: null,
  cronbachAlpha: null,
  histogram: [
    { from: 0, to: 2, count: 1 },
    { from: 2, to: 4, count: 1 },
  ],
  questions: [
    {
      questionId: "0190f3a0-0000-7000-8000-000000000011",
      position: 1,
      type: "single_choice",
      points: 1,
      ungraded: false,
      decided: 2,
      facility: 0.5,
      discrimination: null,
      distribution: [],
      blank: 1,
      editTime: { medianSeconds: 95.4, known: 1 },
      options: [
        { optionId: "a", label: "Network", count: 1 },
        { optionId: "b", label: "Link", count: 0 },
      ],
    },
  ],
};
const results: ExamResultsView = {
  examId,
  releasedAt: null,
  maxScore: 4,
  candidates: [
    {
      enrollmentId: "0190f3a0-0000-7000-8000-000000000021",
      name: "Ada Lovelace",
      email: "ada@example.test",
      attemptId: "0190f3a0-0000-7000-8000-000000000031",
      status: "submitted",
      score: 3.5,
      graded: false,
    },
    {
      enrollmentId: "0190f3a0-0000-7000-8000-000000000022",
      name: "Alan Turing",
      email: "alan@example.test",
      attemptId: null,
      status: "not_started",
      score: null,
      graded: false,
    },
  ],
};

function render(locale: "en" | "zh-CN"): string {
  const client = new QueryClient();
  const dashboard = createElement(ResultsDashboard, {
    examId,
    initialStatistics: statistics,
    initialResults: results,
  });
  const queries = createElement(QueryClientProvider, { client }, dashboard);
  const intl: ComponentProps<typeof NextIntlClientProvider> = {
    locale,
    messages: MESSAGES[locale],
    timeZone: "UTC",
    children: queries,
  };
  return renderToString(createElement(NextIntlClientProvider, intl));
}

describe("ResultsDashboard (server render)", () => {
  it("shows the figures, the release state, the downloads and each candidate's score in English", () => {
    const html = render("en");
    expect(html).toContain("Not released: candidates cannot see their results.");
    expect(html).toContain("Release results");
    expect(html).toContain(`href="/api/admin/exams/${examId}/results.csv"`);
    expect(html).toContain(`href="/api/admin/exams/${examId}/answers.csv"`);
    expect(html).toContain(`href="/api/admin/exams/${examId}/results.json"`);
    expect(html).toContain("2 of 3");
    expect(html).toContain("2.5 of 4");
    expect(html).toContain("3.5 / 4");
    expect(html).toContain("Waiting for a grader");
    expect(html).toContain(`href="/admin/attempts/${results.candidates[0]!.attemptId}/result"`);
    expect(html).toContain("50%");
    expect(html).toContain("Question 1: Network 1, Link 0.");
    // The median time from first to last edit, 95.4 s, reads as a duration.
    expect(html).toContain("1m 35s");
    // Every message is found (a missing one would render as its key).
    expect(html).not.toMatch(/statistics\.[a-z]/);
  });

  it("speaks Chinese in Chinese", () => {
    const html = render("zh-CN");
    expect(html).toContain("尚未公布");
    expect(html).toContain("2.5 / 4");
    expect(html).toContain("待人工评分");
    expect(html).toContain("未开始");
    expect(html).not.toMatch(/statistics\.[a-z]/);
  });
});

describe("refreshInterval", () => {
  const complete: ExamStatisticsView = { ...statistics, submitted: 3, scored: 3, waitingForPerson: 0 };
  const row = results.candidates[0]!;
  const allGraded: ExamResultsView = { ...results, candidates: [{ ...row, score: 3, graded: true }] };

  it("reads again soon while the statistics say a paper is not scored or waits for a grader", () => {
    expect(refreshInterval(undefined)).toBe(5_000);
    expect(refreshInterval({ ...complete, scored: 2 })).toBe(5_000);
    expect(refreshInterval({ ...complete, waitingForPerson: 1 })).toBe(5_000);
    expect(refreshInterval(complete)).toBe(30_000);
    expect(refreshInterval(complete, allGraded)).toBe(30_000);
  });

  it("keeps the candidates' list busy when it was read before the last paper was scored, though the statistics are complete", () => {
    const stale: ExamResultsView = { ...results, candidates: [{ ...row, score: null, graded: false }] };
    expect(refreshInterval(complete, stale)).toBe(5_000);
    // A candidate still writing is not a paper waiting to be scored.
    const writing: ExamResultsView = {
      ...results,
      candidates: [{ ...row, status: "in_progress", score: null, graded: false }],
    };
    expect(refreshInterval(complete, writing)).toBe(30_000);
  });
});
