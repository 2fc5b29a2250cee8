"use client";

import { useTranslations } from "next-intl";
import { useCallback } from "react";

import { fieldKeyOf, type ApiFailure } from "@/lib/shared/i18n/api-failure";

/**
 * Turns a failed call into one sentence in the reader's language: the sentence for the error code, and for
 * validation errors the fields named in that language ("Check these fields: Email, Password"). Needs the
 * `errors` namespace in the nearest NextIntlClientProvider.
 */
export function useDescribeFailure(): (failure: ApiFailure) => string {
  const t = useTranslations("errors");
  return useCallback(
    (failure: ApiFailure) => {
      if (failure.kind === "network") return t("network");
      const base =
        failure.code && t.has(`codes.${failure.code}`)
          ? t(`codes.${failure.code}`)
          : t("unexpected", { status: failure.status });
      if (failure.code !== "VALIDATION_FAILED" || failure.issues.length === 0) return base;
      const names = [
        ...new Set(
          failure.issues.map(({ path }) => {
            const { key, questionIndex } = fieldKeyOf(path);
            const field = key && t.has(`fields.${key}`) ? t(`fields.${key}`) : key || t("fields.body");
            return questionIndex === null ? field : t("inQuestion", { number: questionIndex + 1, field });
          }),
        ),
      ];
      return t("checkFields", { fields: names.join(t("listSeparator")) });
    },
    [t],
  );
}
