"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { StaffSignInSchema, type StaffSignInInput } from "@/lib/shared/schemas/auth";
import { StaffRoleSchema } from "@/lib/shared/schemas/staff";
import { staffHome } from "@/lib/shared/staff-home";
import { z } from "@/lib/shared/zod";

const SignedInSchema = z.object({ role: StaffRoleSchema });

/**
 * Staff email + password. On success goes to `next` (already checked to be a path on this site) or the role's
 * home. Needs the `staff` messages.
 */
export function SignInForm({ next }: { next: string | null }) {
  const t = useTranslations("staff.signIn");
  const router = useRouter();
  const [invalid, setInvalid] = useState<{ field: "email" | "password" | null; message: string } | null>(null);
  const signIn = useApiAction((input: StaffSignInInput) =>
    callApi("/api/staff/session", { method: "POST", json: input, schema: SignedInSchema }),
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = StaffSignInSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!input.success) {
      const field = input.error.issues[0]?.path[0];
      const known = field === "email" || field === "password" ? field : null;
      setInvalid({ field: known, message: known ? t(`hints.${known}`) : t("hints.other") });
      signIn.reset();
      return;
    }

    setInvalid(null);
    const result = await signIn.run(input.data);
    if (!result.ok) return;
    // Stay "Signing in…" until the next page replaces this one.
    router.replace(next ?? staffHome(result.body.role));
  }

  // On this endpoint, "not signed in" means the email or the password did not match; a 429 says how long to wait
  // (the server's `Retry-After`, repeated in the body). Anything else is said by its error code.
  const { failure } = signIn;
  const code = failure?.kind === "http" ? failure.code : null;
  const wait = failure?.kind === "http" ? failure.details?.retryAfterSeconds : undefined;
  const refusal =
    code === "UNAUTHENTICATED"
      ? t("incorrect")
      : code === "TOO_MANY_SIGN_INS" && typeof wait === "number"
        ? t("tooMany", { seconds: wait })
        : signIn.error;
  const isPending = signIn.isPending || signIn.data !== undefined;

  // noValidate: the browser's own bubbles speak the browser's language, not the page's; the form says what is
  // wrong itself, next to the fields, in the page's language.
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <Field
        id="signin-email"
        label={t("email")}
        name="email"
        type="email"
        autoComplete="username"
        required
        maxLength={320}
        error={invalid?.field === "email" ? invalid.message : null}
        describedBy="signin-error"
      />
      <Field
        id="signin-password"
        label={t("password")}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={1000}
        error={invalid?.field === "password" ? invalid.message : null}
        describedBy="signin-error"
      />
      <FormError id="signin-error" message={invalid?.field === null ? invalid.message : refusal} />
      <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
        {isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
