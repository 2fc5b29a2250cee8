"use client";

import { useTranslations } from "next-intl";

import type { PublishProblem } from "@/lib/shared/exam-lifecycle";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";
import { PublishCheckDetailsSchema } from "@/lib/shared/schemas/responses/exams";

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

/** The problems a failure names, when it is a PUBLISH_CHECK_FAILED (its details parsed by their schema); else []. */
export function publishProblemsOf(failure: ApiFailure | null): PublishProblem[] {
  if (failure?.kind !== "http" || failure.code !== "PUBLISH_CHECK_FAILED") return [];
  const parsed = PublishCheckDetailsSchema.safeParse(failure.details);
  return parsed.success ? parsed.data.problems : [];
}
