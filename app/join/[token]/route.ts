import { sessionCookie } from "@/lib/server/auth/cookies";
import { redeemJoinToken } from "@/lib/server/enrollments/redeem-join-token";
import { AppError } from "@/lib/shared/errors";

type Context = { params: Promise<{ token: string }> };

/**
 * A candidate's personal link: exchanges the token for a session cookie and lands on the exam's start
 * page. A bad or closed link lands on a page that says so, in words, never on a JSON error.
 */
export async function GET(request: Request, context: Context): Promise<Response> {
  const { token } = await context.params;
  try {
    const joined = await redeemJoinToken({
      joinToken: token.slice(0, 256),
      userAgent: request.headers.get("user-agent"),
    });
    return new Response(null, {
      status: 303,
      headers: {
        // Relative, so it stays right behind any proxy.
        Location: `/exam/${joined.examId}`,
        "Set-Cookie": sessionCookie("candidate", joined.token, joined.expiresAt, request),
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
      },
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const reason = error.code === "EXAM_CLOSED" ? "closed" : "invalid";
    return new Response(null, {
      status: 303,
      headers: { Location: `/join-problem?reason=${reason}`, "Cache-Control": "no-store" },
    });
  }
}
