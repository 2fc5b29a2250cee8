import Link from "next/link";
import { useTranslations } from "next-intl";

import subnav from "./subnav.module.css";

export type ResultsNavPage = "grading" | "lateAnswers" | "results" | "webhooks";

/**
 * The exam's results pages (issue 15), linked from the exam page and from each of them: grading by question,
 * late answers, results with statistics, releases and exports, and the webhooks that deliver them (issue 16).
 */
export function ResultsNav({ examId, current }: { examId: string; current?: ResultsNavPage }) {
  const t = useTranslations("staff.resultsNav");
  const base = `/admin/exams/${encodeURIComponent(examId)}`;
  const links: { page: ResultsNavPage; href: string }[] = [
    { page: "grading", href: `${base}/grading` },
    { page: "lateAnswers", href: `${base}/late-answers` },
    { page: "results", href: `${base}/results` },
    { page: "webhooks", href: `${base}/webhooks` },
  ];
  return (
    <nav aria-label={t("label")} className={subnav.subnav}>
      <ul>
        {links.map(({ page, href }) => (
          <li key={page}>
            <Link href={href} aria-current={current === page ? "page" : undefined}>
              {t(page)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
