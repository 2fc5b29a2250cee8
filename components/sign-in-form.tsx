"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { z } from "@/lib/shared/zod";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { StaffSignInSchema } from "@/lib/shared/schemas/auth";
import { StaffRoleSchema } from "@/lib/shared/schemas/staff";
import { staffHome } from "@/lib/shared/staff-home";

const SignedInSchema = z.object({ role: StaffRoleSchema });

/**
 * Staff email + password. On success goes to `next` (already checked to be a path on this site) or the role's
 * home. Needs the `staff` messages.
 */
export function SignInForm({ next }: { next: string | null }) {
  const t = useTranslations("staff.signIn");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [invalidField, setInvalidField] = useState<"email" | "password" | null>(null);
  const [isPending, setIsPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = StaffSignInSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!input.success) {
      const field = input.error.issues[0]?.path[0];
      const known = field === "email" || field === "password" ? field : null;
      setInvalidField(known);
      setError(known ? t(`hints.${known}`) : t("hints.other"));
      return;
    }

    setError("");
    setInvalidField(null);
    setIsPending(true);
    const result = await callApi("/api/staff/session", { method: "POST", json: input.data });
    if (!result.ok) {
      // On this endpoint, "not signed in" means the email or the password did not match; a 429 says how long
      // to wait (the server's `Retry-After`, repeated in the body).
      const { failure } = result;
      const code = failure.kind === "http" ? failure.code : null;
      const wait = failure.kind === "http" ? failure.details?.retryAfterSeconds : undefined;
      if (code === "UNAUTHENTICATED") setError(t("incorrect"));
      else if (code === "TOO_MANY_SIGN_INS" && typeof wait === "number") setError(t("tooMany", { seconds: wait }));
      else setError(describe(failure));
      setIsPending(false);
      return;
    }
    const session = SignedInSchema.safeParse(result.body);
    const home = staffHome(session.success ? session.data.role : "admin");
    // Stay "Signing in…" until the next page replaces this one.
    router.replace(next ?? home);
  }

  // noValidate: the browser's own bubbles speak the browser's language, not the page's; the form says what is
  // wrong itself, next to the fields, in the page's language.
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="signin-email">{t("email")}</label>
        <input
          id="signin-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={320}
          aria-invalid={invalidField === "email" || undefined}
          aria-describedby="signin-error"
        />
      </div>
      <div className="field">
        <label htmlFor="signin-password">{t("password")}</label>
        <input
          id="signin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1000}
          aria-invalid={invalidField === "password" || undefined}
          aria-describedby="signin-error"
        />
      </div>
      <p id="signin-error" className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
        {isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
