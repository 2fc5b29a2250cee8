"use client";

import { useTranslations } from "next-intl";

import type { PublishProblem } from "@/lib/shared/exam-lifecycle";

/** The reasons an exam cannot be published, from the server's 422 PUBLISH_CHECK_FAILED, in the reader's words. */
export function PublishProblems({ problems }: { problems: PublishProblem[] }) {
  const t = useTranslations("authoring.lifecycle");
  if (problems.length === 0) return null;
  return (
    <div className="notice notice--warn" role="alert">
      <p>{t("problemsTitle")}</p>
      <ul>
        {problems.map((problem, index) => (
          <li key={`${problem.code}-${index}`}>
            {problem.code === "CHOICE_WITHOUT_KEY"
              ? t("problems.CHOICE_WITHOUT_KEY", { position: problem.position })
              : t(`problems.${problem.code}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The problem list of a failure, when it is a PUBLISH_CHECK_FAILED. */
export function publishProblemsOf(details: Record<string, unknown> | undefined): PublishProblem[] {
  const problems = details?.problems;
  return Array.isArray(problems) ? (problems as PublishProblem[]) : [];
}
