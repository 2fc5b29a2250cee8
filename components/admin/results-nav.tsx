import Link from "next/link";
import { useTranslations } from "next-intl";

export type ResultsNavPage = "grading" | "lateAnswers" | "results";

/**
 * The exam's results pages (issue 15), linked from the exam page and from each of them: grading by question,
 * late answers, and results with statistics, releases and exports.
 */
export function ResultsNav({ examId, current }: { examId: string; current?: ResultsNavPage }) {
  const t = useTranslations("staff.resultsNav");
  const base = `/admin/exams/${encodeURIComponent(examId)}`;
  const links: { page: ResultsNavPage; href: string }[] = [
    { page: "grading", href: `${base}/grading` },
    { page: "lateAnswers", href: `${base}/late-answers` },
    { page: "results", href: `${base}/results` },
  ];
  return (
    <nav aria-label={t("label")} className="subnav">
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
