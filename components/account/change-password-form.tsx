"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from "@/lib/shared/password-policy";

type Field = "current" | "new" | "confirm";
const PROBLEMS = ["too_short", "too_long", "common", "same_as_email", "unchanged"] as const;

/**
 * Changes the signed-in member's own password (PUT /api/staff/password). The policy is checked here first with
 * the server's own function, so the reason shows before anything is sent. After a forced change (a temporary
 * password) the member goes on to `next`, or their home. Needs the `account` messages.
 */
export function ChangePasswordForm({
  email,
  isTemporary,
  next,
}: {
  email: string;
  isTemporary: boolean;
  next: string | null;
}) {
  const t = useTranslations("account.account");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [invalid, setInvalid] = useState<Field | null>(null);
  const [done, setDone] = useState("");
  const [isPending, setIsPending] = useState(false);

  function problemText(reason: string): string {
    return (PROBLEMS as readonly string[]).includes(reason)
      ? t(`problems.${reason as (typeof PROBLEMS)[number]}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })
      : describe({ kind: "http", status: 422, code: "WEAK_PASSWORD", message: null, issues: [] });
  }

  function fail(field: Field | null, message: string) {
    setInvalid(field);
    setError(message);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone("");
    const form = event.currentTarget;
    const data = new FormData(form);
    const currentPassword = String(data.get("currentPassword") ?? "");
    const newPassword = String(data.get("newPassword") ?? "");
    const confirm = String(data.get("confirmPassword") ?? "");
    if (!currentPassword) return fail("current", t("required"));
    const problem = passwordProblem(newPassword, email);
    if (problem) return fail("new", problemText(problem));
    if (newPassword === currentPassword) return fail("new", problemText("unchanged"));
    if (confirm !== newPassword) return fail("confirm", t("mismatch"));

    fail(null, "");
    setIsPending(true);
    const result = await callApi("/api/staff/password", { method: "PUT", json: { currentPassword, newPassword } });
    setIsPending(false);
    if (!result.ok) {
      const { failure } = result;
      if (failure.kind === "http" && failure.code === "CURRENT_PASSWORD_INCORRECT") {
        return fail("current", describe(failure));
      }
      if (failure.kind === "http" && failure.code === "WEAK_PASSWORD") {
        return fail("new", problemText(String(failure.details?.reason ?? "")));
      }
      return fail(null, describe(failure));
    }
    form.reset();
    if (isTemporary) {
      router.replace(next ?? "/");
      router.refresh();
      return;
    }
    setDone(t("changed"));
  }

  const describedBy = (field: Field) => (invalid === field ? "password-error password-policy" : "password-policy");

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {/* Lets password managers save the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div className="field">
        <label htmlFor="password-current">{isTemporary ? t("currentPasswordTemporary") : t("currentPassword")}</label>
        <input
          id="password-current"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1000}
          aria-invalid={invalid === "current" || undefined}
          aria-describedby={invalid === "current" ? "password-error" : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor="password-new">{t("newPassword")}</label>
        <input
          id="password-new"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          aria-invalid={invalid === "new" || undefined}
          aria-describedby={describedBy("new")}
        />
        <p id="password-policy" className="muted field-hint">
          {t("policy")}
        </p>
      </div>
      <div className="field">
        <label htmlFor="password-confirm">{t("confirmPassword")}</label>
        <input
          id="password-confirm"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
          aria-invalid={invalid === "confirm" || undefined}
          aria-describedby={invalid === "confirm" ? "password-error" : undefined}
        />
      </div>
      <p id="password-error" className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      <p className="form-done" role="status" aria-live="polite">
        {done}
      </p>
      <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
        {isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
