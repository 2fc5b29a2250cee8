"use client";

import { useTranslations } from "next-intl";

import { FormError } from "@/components/ui/form-error";
import { useSignOut } from "@/lib/client/use-sign-out";

/** Ends every session of the signed-in member, this one included, then shows the sign-in page. */
export function SignOutEverywhere() {
  const t = useTranslations("account.account");
  const { signOut, error, isPending } = useSignOut("/api/staff/sessions");

  return (
    <div className="stack">
      <button className="button" type="button" onClick={signOut} disabled={isPending} aria-busy={isPending}>
        {isPending ? t("signingOutEverywhere") : t("signOutEverywhere")}
      </button>
      <FormError message={error} />
    </div>
  );
}
