import Link from "next/link";
import { useTranslations } from "next-intl";

import { SiteHeader } from "@/components/site-header";

export default function NotFound() {
  const t = useTranslations("candidate.notFound");
  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>{t("title")}</h1>
        <p>{t("text")}</p>
        <p>{t.rich("candidates", { link: (chunks) => <Link href="/signin">{chunks}</Link> })}</p>
        <p>
          <Link href="/">{t("home")}</Link>
        </p>
      </main>
    </>
  );
}
