"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Field } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from "@/lib/shared/password-policy";

type PasswordField = "current" | "new" | "confirm";
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
  const [invalid, setInvalid] = useState<{ field: PasswordField; message: string } | null>(null);
  const [done, setDone] = useState("");
  const change = useApiAction((body: { currentPassword: string; newPassword: string }) =>
    callApi("/api/staff/password", { method: "PUT", json: body }),
  );

  function problemText(reason: string): string {
    return (PROBLEMS as readonly string[]).includes(reason)
      ? t(`problems.${reason as (typeof PROBLEMS)[number]}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })
      : describe({ kind: "http", status: 422, code: "WEAK_PASSWORD", message: null, issues: [] });
  }

  function fail(field: PasswordField, message: string) {
    setInvalid({ field, message });
    change.reset();
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

    setInvalid(null);
    const result = await change.run({ currentPassword, newPassword });
    if (!result.ok) {
      // The two refusals that are about one field are said beside it; anything else above the button.
      const { failure } = result;
      if (failure.kind === "http" && failure.code === "CURRENT_PASSWORD_INCORRECT") {
        return setInvalid({ field: "current", message: describe(failure) });
      }
      if (failure.kind === "http" && failure.code === "WEAK_PASSWORD") {
        return setInvalid({ field: "new", message: problemText(String(failure.details?.reason ?? "")) });
      }
      return;
    }
    form.reset();
    if (isTemporary) {
      router.replace(next ?? "/");
      router.refresh();
      return;
    }
    setDone(t("changed"));
  }

  const errorOf = (field: PasswordField) => (invalid?.field === field ? invalid.message : null);
  const isFieldRefusal =
    change.failure?.kind === "http" &&
    (change.failure.code === "CURRENT_PASSWORD_INCORRECT" || change.failure.code === "WEAK_PASSWORD");

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {/* Lets password managers save the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field
        id="password-current"
        label={isTemporary ? t("currentPasswordTemporary") : t("currentPassword")}
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        maxLength={1000}
        error={errorOf("current")}
      />
      <Field
        id="password-new"
        label={t("newPassword")}
        hint={t("policy")}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        error={errorOf("new")}
      />
      <Field
        id="password-confirm"
        label={t("confirmPassword")}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX_LENGTH}
        error={errorOf("confirm")}
      />
      <FormError id="password-error" message={isFieldRefusal ? "" : change.error} />
      <FormStatus message={done} />
      <button className="button button--primary" type="submit" disabled={change.isPending} aria-busy={change.isPending}>
        {change.isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
