import Link from "next/link";
import { useTranslations } from "next-intl";

import { DeliveriesNavLink } from "./admin/webhooks/deliveries-nav-link";
import { SignOutButton } from "./sign-out-button";
import { SiteHeader } from "./site-header";

type StaffSection = "admin" | "proctor" | "grading" | "staff" | "audit" | "receipts" | "deliveries" | "account" | "api";

/**
 * Staff pages: where they can go (each role only its own places: a grader has no proctoring, an admin and a
 * proctor no grader's home; an admin's "Deliveries" counts the webhook deliveries that need someone), who is
 * signed in, and the way out.
 */
export function StaffHeader({
  staff,
  current,
}: {
  staff: { name: string; role: "admin" | "proctor" | "grader" };
  current: StaffSection;
}) {
  const t = useTranslations("common");
  return (
    <SiteHeader>
      <nav className="site-nav" aria-label={t("staffNav")}>
        {staff.role === "admin" ? (
          <Link href="/admin" aria-current={current === "admin" ? "page" : undefined}>
            {t("navExams")}
          </Link>
        ) : null}
        {staff.role === "grader" ? (
          <Link href="/grading" aria-current={current === "grading" ? "page" : undefined}>
            {t("navGrading")}
          </Link>
        ) : (
          <Link href="/proctor" aria-current={current === "proctor" ? "page" : undefined}>
            {t("navProctoring")}
          </Link>
        )}
        {staff.role === "admin" ? (
          <Link href="/admin/staff" aria-current={current === "staff" ? "page" : undefined}>
            {t("navStaff")}
          </Link>
        ) : null}
        {staff.role === "admin" ? (
          <Link href="/admin/audit" aria-current={current === "audit" ? "page" : undefined}>
            {t("navAudit")}
          </Link>
        ) : null}
        {staff.role === "admin" ? (
          <Link href="/admin/receipts" aria-current={current === "receipts" ? "page" : undefined}>
            {t("navReceipts")}
          </Link>
        ) : null}
        {staff.role === "admin" ? <DeliveriesNavLink isCurrent={current === "deliveries"} /> : null}
        <Link href="/admin/api" aria-current={current === "api" ? "page" : undefined}>
          {t("navApi")}
        </Link>
        <Link href="/account" aria-current={current === "account" ? "page" : undefined}>
          {t("navAccount")}
        </Link>
      </nav>
      <div className="site-header__who">
        <span className="muted">
          {staff.name} <span className="role">({t(`roles.${staff.role}`)})</span>
        </span>
        <SignOutButton />
      </div>
    </SiteHeader>
  );
}
