"use client";

import { useTranslations } from "next-intl";

import { useSignOut } from "@/lib/client/use-sign-out";

/** Ends the staff session on the server (not only the cookie) and returns to the sign-in page. */
export function SignOutButton() {
  const t = useTranslations("common");
  const { signOut, error, isPending } = useSignOut("/api/staff/session");

  return (
    <span className="sign-out">
      <button className="button button--quiet" type="button" onClick={signOut} disabled={isPending}>
        {isPending ? t("signingOut") : t("signOut")}
      </button>
      {error ? (
        <span className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
