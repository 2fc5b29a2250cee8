import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/components/i18n/client-messages";
import { SignInForm } from "@/components/sign-in-form";
import { SiteHeader } from "@/components/site-header";
import { currentStaff, staffHome } from "@/lib/server/auth/current-principal";
import { safeNextPath } from "@/lib/shared/safe-next-path";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("staff.signIn");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const next = safeNextPath((await searchParams).next);
  const staff = await currentStaff();
  // Already signed in: go on, but never "on" to this page again (that would loop).
  if (staff) redirect(next && !next.startsWith("/signin") ? next : staffHome(staff.role));
  const t = await getTranslations("staff.signIn");

  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>
        <ClientMessages namespaces={["staff"]}>
          <SignInForm next={next} />
        </ClientMessages>
      </main>
    </>
  );
}
