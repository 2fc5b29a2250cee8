import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { SignInForm } from "@/components/sign-in-form";
import { SiteHeader } from "@/components/site-header";
import { currentStaff, staffHome } from "@/lib/server/auth/current-principal";
import { safeNextPath } from "@/lib/shared/safe-next-path";

export const metadata: Metadata = { title: "Staff sign-in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const next = safeNextPath((await searchParams).next);
  const staff = await currentStaff();
  // Already signed in: go on, but never "on" to this page again (that would loop).
  if (staff) redirect(next && !next.startsWith("/signin") ? next : staffHome(staff.role));

  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>Staff sign-in</h1>
        <p className="muted">
          For exam organisers and proctors. Taking an exam? Open the personal join link from your invitation instead.
        </p>
        <SignInForm next={next} />
      </main>
    </>
  );
}
