import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { SiteHeader } from "@/components/site-header";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The front door: candidates come in through their own join link, staff sign in. */
export default async function HomePage({ searchParams }: Props) {
  const hasLeft = (await searchParams).left === "1";
  const [t, tc] = await Promise.all([getTranslations("candidate.home"), getTranslations("common")]);
  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>{tc("brand")}</h1>
        {hasLeft ? (
          <p className="notice" role="status">
            {t("left")}
          </p>
        ) : null}
        <p>{tc("tagline")}</p>
        <p>{t("candidates")}</p>
        <p>{t.rich("staff", { link: (chunks) => <Link href="/signin">{chunks}</Link> })}</p>
      </main>
    </>
  );
}
