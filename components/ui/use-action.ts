"use client";

import { QueryClientContext, useMutation, type QueryKey } from "@tanstack/react-query";
import { useCallback, useContext, useState } from "react";

import { ApiCallError, failureOf, type ApiCallResult } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { makeQueryClient } from "@/lib/client/query-client";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";

export type ApiAction<TData, TInput = void> = {
  /**
   * Runs the call once. Resolves with its result (a refusal or a lost connection is a result, not a throw), so
   * the caller can act on a success or on a failure's code (name a field, read the list again) beside what the
   * hook shows.
   */
  run: (input: TInput) => Promise<ApiCallResult<TData>>;
  isPending: boolean;
  /** The last failure in the reader's language ("" when none): what a `FormError` shows. */
  error: string;
  failure: ApiFailure | null;
  /** The last success's body. */
  data: TData | undefined;
  /** Forgets the last outcome (the form was edited, the dialog closed). */
  reset: () => void;
};

type ApiActionOptions<TData, TInput> = {
  /**
   * Runs once the API has answered, success or refusal alike, before `onSuccess` and while the action is still
   * pending; the action settles after it. For reads that are out of date either way: a refusal such as "already
   * submitted" also means the page was.
   */
  onSettled?: (result: ApiCallResult<TData>, input: TInput) => unknown;
  /**
   * The reads the action makes out of date: invalidated (and the active ones read again) once the API has
   * answered, success or refusal alike, after `onSettled` and likewise before the action settles. The common
   * case of `onSettled`, without a `useQueryClient` of the caller's own.
   */
  refreshes?: QueryKey;
  /** Runs after a success (and after `onSettled`), before `run` resolves. */
  onSuccess?: (data: TData, input: TInput) => unknown;
};

/**
 * A staff action (a form's submit, a button) on react-query's `useMutation`: its pending state, its failure
 * put in the reader's language from the API's error body (`useDescribeFailure`), and its result.
 * `call` is usually one `callApi(url, { schema, … })`; `refreshes` invalidates the queries it changes, and
 * `onSettled` and `onSuccess` do anything else (refresh the page's data). Uses the page's QueryClient when there
 * is one, else one of its own, so a form needs no provider around it. Needs the `errors` messages.
 */
export function useApiAction<TData, TInput = void>(
  call: (input: TInput) => Promise<ApiCallResult<TData>>,
  options: ApiActionOptions<TData, TInput> = {},
): ApiAction<TData, TInput> {
  const describe = useDescribeFailure();
  const pageClient = useContext(QueryClientContext);
  const [ownClient] = useState(() => (pageClient ? null : makeQueryClient()));
  const client = pageClient ?? ownClient ?? undefined;
  const mutation = useMutation(
    {
      mutationFn: async (input: TInput) => {
        const result = await call(input);
        // Inside the mutation rather than its own `onSettled`, which would run after `onSuccess`.
        await options.onSettled?.(result, input);
        if (options.refreshes) await client?.invalidateQueries({ queryKey: options.refreshes });
        if (!result.ok) throw new ApiCallError(result.failure);
        return result.body;
      },
      onSuccess: (data, input) => options.onSuccess?.(data, input),
    },
    client,
  );
  const { mutateAsync } = mutation;
  const run = useCallback(
    async (input: TInput): Promise<ApiCallResult<TData>> => {
      try {
        return { ok: true, body: await mutateAsync(input) };
      } catch (error) {
        // Only the API's refusals are results; anything else (a bug in `onSuccess`) is thrown on.
        if (error instanceof ApiCallError) return { ok: false, failure: error.failure };
        throw error;
      }
    },
    [mutateAsync],
  );
  const failure = mutation.error ? failureOf(mutation.error) : null;
  return {
    run,
    isPending: mutation.isPending,
    error: failure ? describe(failure) : "",
    failure,
    data: mutation.data,
    reset: mutation.reset,
  };
}
