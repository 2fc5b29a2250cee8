import Link from "next/link";
import { useTranslations } from "next-intl";

import { SiteHeader } from "./site-header";

/** What a candidate sees on an exam page their session does not open: the way in is their own link. */
export function JoinLinkNeeded() {
  const t = useTranslations("candidate.joinLinkNeeded");
  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>{t("title")}</h1>
        <p>{t("text")}</p>
        <p>{t("lost")}</p>
        <p className="muted">{t.rich("staff", { link: (chunks) => <Link href="/signin">{chunks}</Link> })}</p>
      </main>
    </>
  );
}
