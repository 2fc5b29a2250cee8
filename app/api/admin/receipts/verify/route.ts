import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { verifyReceiptFile } from "@/lib/server/receipts/verify-receipt-file";
import { ReceiptFileSchema } from "@/lib/shared/schemas/receipts";

/**
 * Staff check a candidate's receipt file (docs/results.md, "Receipt verifier"): 200 with `valid` true or false
 * (an invalid receipt is an answer, not an error); a body that is not a receipt file is 422.
 */
export const POST = route({ access: "admin", body: ReceiptFileSchema }, async ({ body }) =>
  json(await verifyReceiptFile(body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
