import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { LanguageSwitch } from "./i18n/language-switch";

/** As wide as the page below it, so the name lines up with the content. */
type PageWidth = "wide" | "reading" | "narrow";

/**
 * The bar at the top of every page: the name of the place, whatever the page adds, and the language.
 *
 * The staff header lives in ./staff-header.tsx: its client parts (the deliveries count, on React Query, and the
 * sign-out button) would otherwise travel with every page that imports this file, the candidate's exam page too.
 */
export function SiteHeader({ width = "wide", children }: { width?: PageWidth; children?: ReactNode }) {
  const t = useTranslations("common");
  return (
    <header className="site-header">
      <div className={`site-header__inner site-header__inner--${width}`}>
        <Link className="brand" href="/">
          {t("brand")}
        </Link>
        {children}
        <LanguageSwitch />
      </div>
    </header>
  );
}

/** Candidate pages: whose paper this is. */
export function CandidateHeader({ name, children }: { name: string; children?: ReactNode }) {
  const t = useTranslations("common");
  return (
    <SiteHeader width="reading">
      <div className="site-header__who">
        <span className="muted">{t("signedInAs", { name })}</span>
        {children}
      </div>
    </SiteHeader>
  );
}
