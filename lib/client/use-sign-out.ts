"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

/**
 * Signing out on the server (DELETE on `path`: this session, or every session of the member), then the
 * sign-in page. A refusal stays on the page, in the reader's language.
 */
export function useSignOut(path: "/api/staff/session" | "/api/staff/sessions") {
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [isPending, setIsPending] = useState(false);

  async function signOut() {
    setIsPending(true);
    setError("");
    const result = await callApi(path, { method: "DELETE" });
    if (!result.ok) {
      setError(describe(result.failure));
      setIsPending(false);
      return;
    }
    router.replace("/signin");
    router.refresh();
  }

  return { signOut, error, isPending };
}
