import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { verifyReceiptFile } from "@/lib/server/receipts/verify-receipt-file";
import { ReceiptFileSchema } from "@/lib/shared/schemas/receipts";
import { ReceiptVerdictSchema } from "@/lib/shared/schemas/responses/results";

/**
 * Staff check a candidate's receipt file (docs/results.md, "Receipt verifier"): 200 with `valid` true or false
 * (an invalid receipt is an answer, not an error); a body that is not a receipt file is 422.
 */
export const POST = route(
  {
    access: "admin",
    body: ReceiptFileSchema,
    doc: {
      operationId: "verifyReceipt",
      area: "admin",
      summary: "Check a candidate's receipt file",
      description:
        "The body is the receipt file as the candidate downloads it. 200 whether it is valid or not: valid means the " +
        "server's signature matches the attempt id, submission time and digest, and the submission it names exists " +
        "(current, or earlier and reopened since). digestMatchesPaper says whether the frozen paper still has that " +
        "digest. A body that is not a receipt file is 422.",
      responses: { 200: { description: "The verdict", schema: ReceiptVerdictSchema } },
    },
  },
  async ({ body }) => json(await verifyReceiptFile(body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
