"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

/** Ends the staff session on the server (not only the cookie) and returns to the sign-in page. */
export function SignOutButton() {
  const t = useTranslations("common");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [isPending, setIsPending] = useState(false);

  async function onSignOut() {
    setIsPending(true);
    setError("");
    const result = await callApi("/api/staff/session", { method: "DELETE" });
    if (!result.ok) {
      setError(describe(result.failure));
      setIsPending(false);
      return;
    }
    router.replace("/signin");
    router.refresh();
  }

  return (
    <span className="sign-out">
      <button className="button button--quiet" type="button" onClick={onSignOut} disabled={isPending}>
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
