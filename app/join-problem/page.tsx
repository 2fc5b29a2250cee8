import type { Metadata } from "next";

import { SiteHeader } from "@/components/site-header";

export const metadata: Metadata = { title: "Join link problem" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PROBLEMS = {
  invalid: {
    title: "This join link does not work",
    body: [
      "The link may be incomplete, mistyped, or replaced by a newer one. Links are long, and some mail apps break them across lines: open the link straight from your invitation rather than copying part of it.",
      "If it still does not work, ask your exam organiser to send you your personal link again.",
    ],
  },
  closed: {
    title: "This exam has closed",
    body: [
      "Join links stop working when their exam closes, so this one can no longer start or resume an exam.",
      "If you think the exam should still be open for you, contact your exam organiser.",
    ],
  },
} as const;

/** Where GET /join/{token} sends a browser whose link is bad or whose exam has closed. */
export default async function JoinProblemPage({ searchParams }: Props) {
  const reason = (await searchParams).reason === "closed" ? "closed" : "invalid";
  const problem = PROBLEMS[reason];

  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>{problem.title}</h1>
        {problem.body.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </main>
    </>
  );
}
