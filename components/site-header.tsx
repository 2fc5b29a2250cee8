import Link from "next/link";
import type { ReactNode } from "react";

import { SignOutButton } from "./sign-out-button";

/** As wide as the page below it, so the name lines up with the content. */
export type PageWidth = "wide" | "reading" | "narrow";

/** The bar at the top of every page: the name of the place, then whatever the page adds. */
export function SiteHeader({ width = "wide", children }: { width?: PageWidth; children?: ReactNode }) {
  return (
    <header className="site-header">
      <div className={`site-header__inner site-header__inner--${width}`}>
        <Link className="brand" href="/">
          Holdfast
        </Link>
        {children}
      </div>
    </header>
  );
}

type StaffSection = "admin" | "proctor";

/** Staff pages: where they can go, who is signed in, and the way out. */
export function StaffHeader({
  staff,
  current,
}: {
  staff: { name: string; role: "admin" | "proctor" };
  current: StaffSection;
}) {
  return (
    <SiteHeader>
      <nav className="site-nav" aria-label="Staff">
        {staff.role === "admin" ? (
          <Link href="/admin" aria-current={current === "admin" ? "page" : undefined}>
            Exams
          </Link>
        ) : null}
        <Link href="/proctor" aria-current={current === "proctor" ? "page" : undefined}>
          Proctoring
        </Link>
      </nav>
      <div className="site-header__who">
        <span className="muted">
          {staff.name} <span className="role">({staff.role})</span>
        </span>
        <SignOutButton />
      </div>
    </SiteHeader>
  );
}

/** Candidate pages: whose paper this is. */
export function CandidateHeader({ name }: { name: string }) {
  return (
    <SiteHeader width="reading">
      <div className="site-header__who">
        <span className="muted">Signed in as {name}</span>
      </div>
    </SiteHeader>
  );
}
