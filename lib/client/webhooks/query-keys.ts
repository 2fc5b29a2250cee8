import type { DeliveryStatus } from "@/lib/shared/schemas/webhooks";

/**
 * Query keys of the webhook pages, from one factory (TkDodo, "Effective React Query Keys"): invalidating
 * `webhookKeys.all` after an action refreshes the endpoints, the deliveries and the header's count alike.
 */
export const webhookKeys = {
  all: ["webhooks"] as const,
  endpoints: (examId: string) => [...webhookKeys.all, "endpoints", examId] as const,
  deliveries: (filters: { status?: DeliveryStatus; endpointId?: string; examId?: string }) =>
    [...webhookKeys.all, "deliveries", filters] as const,
  delivery: (deliveryId: string) => [...webhookKeys.all, "delivery", deliveryId] as const,
  alerts: () => [...webhookKeys.all, "alerts"] as const,
};
