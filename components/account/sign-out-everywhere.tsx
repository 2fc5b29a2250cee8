"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

/** Ends every session of the signed-in member, this one included, then shows the sign-in page. */
export function SignOutEverywhere() {
  const t = useTranslations("account.account");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [isPending, setIsPending] = useState(false);

  async function onClick() {
    setIsPending(true);
    setError("");
    const result = await callApi("/api/staff/sessions", { method: "DELETE" });
    if (!result.ok) {
      setError(describe(result.failure));
      setIsPending(false);
      return;
    }
    router.replace("/signin");
    router.refresh();
  }

  return (
    <div className="stack">
      <button className="button" type="button" onClick={onClick} disabled={isPending} aria-busy={isPending}>
        {isPending ? t("signingOutEverywhere") : t("signOutEverywhere")}
      </button>
      <p className="form-error" role="alert">
        {error}
      </p>
    </div>
  );
}
