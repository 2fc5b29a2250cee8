"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";

import type { ApiCallResult } from "@/lib/client/call-api";

import { useApiAction, type ApiAction } from "../ui/use-action";

/**
 * `useApiAction` for a dashboard action: once the API has answered, success or refusal alike, the reads under
 * `refresh` (usually `proctorKeys.exam(examId)`: the rows, health, announcements) are read again, and the action
 * settles after that — a refusal such as "already submitted" also means the page was out of date.
 * `onSuccess` runs after the refresh.
 */
export function useDashboardAction<TData, TInput = void>(
  refresh: QueryKey,
  call: (input: TInput) => Promise<ApiCallResult<TData>>,
  options: { onSuccess?: (data: TData, input: TInput) => unknown } = {},
): ApiAction<TData, TInput> {
  const queryClient = useQueryClient();
  return useApiAction(async (input: TInput) => {
    const result = await call(input);
    await queryClient.invalidateQueries({ queryKey: refresh });
    return result;
  }, options);
}
