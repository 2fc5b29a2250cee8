import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ChangePasswordForm } from "@/components/account/change-password-form";
import { SignOutEverywhere } from "@/components/account/sign-out-everywhere";
import { ClientMessages } from "@/components/i18n/client-messages";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff, staffHome } from "@/lib/server/auth/current-principal";
import { safeNextPath } from "@/lib/shared/safe-next-path";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account.account");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Every staff member's own account: change the password, sign out everywhere. A member whose password an
 * admin set lands here first (requireStaff) and goes on to where they were headed once they chose their own.
 */
export default async function AccountPage({ searchParams }: Props) {
  const staff = await requireStaff({ path: "/account", role: "any", allowsPendingPasswordChange: true });
  const next = safeNextPath((await searchParams).next);
  const t = await getTranslations("account.account");
  const goOnTo = next && next !== "/account" && !next.startsWith("/account?") ? next : staffHome(staff.role);

  return (
    <>
      <StaffHeader staff={staff} current="account" />
      <main className="page page--reading">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro", { name: staff.name, email: staff.email })}</p>
        {staff.mustChangePassword ? (
          <p className="notice notice--warn" role="status">
            {t("mustChange")}
          </p>
        ) : null}
        <ClientMessages namespaces={["account"]}>
          <section aria-labelledby="password-heading">
            <h2 id="password-heading">{t("passwordHeading")}</h2>
            <ChangePasswordForm email={staff.email} isTemporary={staff.mustChangePassword} next={goOnTo} />
          </section>
          <section aria-labelledby="sessions-heading">
            <h2 id="sessions-heading">{t("sessionsHeading")}</h2>
            <p className="muted">{t("sessionsIntro")}</p>
            <SignOutEverywhere />
          </section>
        </ClientMessages>
      </main>
    </>
  );
}
