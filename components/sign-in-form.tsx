"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { z } from "zod";

import { callApi } from "@/lib/client/api-error-message";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { StaffSignInSchema } from "@/lib/shared/schemas/auth";

const SignedInSchema = z.object({ role: z.enum(["admin", "proctor"]) });

const FIELD_HINTS: Record<string, string> = {
  email: "Enter your email address, like name@example.org.",
  password: "Enter your password.",
};

/** Staff email + password. On success goes to `next` (already checked to be a path on this site) or the role's home. */
export function SignInForm({ next }: { next: string | null }) {
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [isPending, setIsPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = StaffSignInSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!input.success) {
      const field = String(input.error.issues[0]?.path[0] ?? "");
      setError(FIELD_HINTS[field] ?? "Check the email and password and try again.");
      return;
    }

    setError("");
    setIsPending(true);
    const result = await callApi("/api/staff/session", { method: "POST", json: input.data });
    if (!result.ok) {
      setError(describe(result.failure));
      setIsPending(false);
      return;
    }
    const session = SignedInSchema.safeParse(result.body);
    const home = session.success && session.data.role === "proctor" ? "/proctor" : "/admin";
    // Stay "Signing in…" until the next page replaces this one.
    router.replace(next ?? home);
  }

  return (
    <form className="form" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor="signin-email">Email</label>
        <input id="signin-email" name="email" type="email" autoComplete="username" required maxLength={320} />
      </div>
      <div className="field">
        <label htmlFor="signin-password">Password</label>
        <input
          id="signin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1000}
        />
      </div>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
        {isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
