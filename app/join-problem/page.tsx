import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { SiteHeader } from "@/components/site-header";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("candidate.joinProblem");
  return { title: t("pageTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Where GET /join/{token} sends a browser whose link is bad or whose exam has closed. */
export default async function JoinProblemPage({ searchParams }: Props) {
  const reason = (await searchParams).reason === "closed" ? "closed" : "invalid";
  const t = await getTranslations(`candidate.joinProblem.${reason}`);

  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>{t("title")}</h1>
        <p>{t("text")}</p>
        <p>{t("next")}</p>
      </main>
    </>
  );
}
