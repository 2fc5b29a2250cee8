import { z } from "@/lib/shared/zod";

/** An instant as every API response writes it: ISO 8601 with an offset (`2026-12-01T08:00:00.000Z`). */
export const InstantSchema = z.iso.datetime({ offset: true });
