import { describe, expect, it } from "vitest";

import { LOCALES } from "@/lib/shared/i18n/locales";
import { translatorFor } from "@/test-support/shared/translator";

import { AUDIT_ACTIONS } from "./audit-actions";
import { describeAuditEntry } from "./describe-audit-entry";
import type { AuditEntry } from "./schemas/audit";

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id: "0193a000-0000-7000-8000-000000000001",
    at: "2026-12-01T09:30:00.000Z",
    actor: { type: "staff", id: "0193a000-0000-7000-8000-000000000002", name: "Ana Admin", email: "ana@x.test" },
    action: "exam.created",
    examId: "0193a000-0000-7000-8000-000000000003",
    examTitle: "Networks 101",
    candidate: { id: "0193a000-0000-7000-8000-000000000004", name: "Lee", email: "lee@x.test" },
    staffMember: { id: "0193a000-0000-7000-8000-000000000005", name: "Pat Proctor", email: "pat@x.test" },
    attemptId: null,
    data: {},
    ...overrides,
  };
}

describe("describeAuditEntry", () => {
  it("says what happened, with who did it and to whom", () => {
    const t = translatorFor("en", "audit");
    const tc = translatorFor("en", "common");
    expect(describeAuditEntry(entry({ action: "attempt.extended", data: { seconds: 600 } }), t, tc, "en")).toBe(
      "Ana Admin extended Lee’s time by 10 minutes",
    );
    expect(
      describeAuditEntry(
        entry({ action: "exam.status_changed", data: { from: "draft", to: "published" } }),
        t,
        tc,
        "en",
      ),
    ).toBe("Ana Admin changed “Networks 101” from Draft to Published");
    expect(
      describeAuditEntry(
        entry({
          action: "staff.created",
          actor: { type: "api-token", id: null, name: null, email: null },
          data: { role: "proctor" },
        }),
        t,
        tc,
        "en",
      ),
    ).toBe("The API token created an account for Pat Proctor (proctor)");
    const zt = translatorFor("zh-CN", "audit");
    const zc = translatorFor("zh-CN", "common");
    expect(describeAuditEntry(entry({ action: "attempt.extended", data: { seconds: 600 } }), zt, zc, "zh-CN")).toBe(
      "Ana Admin 为 Lee 延长了 10分钟",
    );
  });

  it("says a pause's reason, scope and count, and a resume's (ADR 016)", () => {
    const t = translatorFor("en", "audit");
    const tc = translatorFor("en", "common");
    const paused = entry({ action: "exam.paused", data: { reason: "Fire alarm", scope: "exam", attempts: 12 } });
    expect(describeAuditEntry(paused, t, tc, "en")).toBe(
      "Ana Admin paused “Networks 101”: Fire alarm (12 running attempts)",
    );
    const some = entry({ action: "exam.paused", data: { reason: "Power cut", scope: "selection", attempts: 2 } });
    expect(describeAuditEntry(some, t, tc, "en")).toBe("Ana Admin paused 2 candidates of “Networks 101”: Power cut");
    const resumed = entry({ action: "exam.resumed", data: { reason: null, scope: "exam", attempts: 1 } });
    expect(describeAuditEntry(resumed, t, tc, "en")).toBe("Ana Admin resumed “Networks 101” (1 paused attempt)");
    const zt = translatorFor("zh-CN", "audit");
    const zc = translatorFor("zh-CN", "common");
    expect(describeAuditEntry(paused, zt, zc, "zh-CN")).toBe(
      "Ana Admin 暂停了“Networks 101”：Fire alarm（12 份作答中的答卷）",
    );
  });

  it("has a sentence and a filter label for every kind, in every language, that names the actor", () => {
    for (const locale of LOCALES) {
      const t = translatorFor(locale, "audit");
      const tc = translatorFor(locale, "common");
      for (const action of AUDIT_ACTIONS) {
        const sentence = describeAuditEntry(entry({ action, data: { seconds: 60, count: 2, new: 2 } }), t, tc, locale);
        expect(sentence, `${locale} ${action}`).toContain("Ana Admin");
        expect(sentence, `${locale} ${action}`).not.toContain(action);
        expect(t(`kinds.${action}`), `${locale} ${action}`).not.toContain(action);
      }
    }
  });

  it("reads a kind it has no sentence for as actor and kind", () => {
    const sentence = describeAuditEntry(
      entry({ action: "exam.teleported" }),
      translatorFor("en", "audit"),
      translatorFor("en", "common"),
      "en",
    );
    expect(sentence).toBe("Ana Admin: exam.teleported");
  });
});

describe("describeAuditEntry: results delivery (issue 16)", () => {
  it("names the receiver's URL and how many deliveries went back", () => {
    const t = translatorFor("en", "audit");
    const tc = translatorFor("en", "common");
    expect(
      describeAuditEntry(
        entry({ action: "endpoint.retried", data: { url: "https://lms.example/hook", count: 3 } }),
        t,
        tc,
        "en",
      ),
    ).toBe("Ana Admin sent 3 failed deliveries to https://lms.example/hook again");
    expect(
      describeAuditEntry(entry({ action: "delivery.cancelled", data: { deliveryId: "msg_ab" } }), t, tc, "en"),
    ).toBe("Ana Admin cancelled delivery msg_ab of “Networks 101”");
    const zt = translatorFor("zh-CN", "audit");
    const zc = translatorFor("zh-CN", "common");
    expect(
      describeAuditEntry(
        entry({ action: "webhook.created", data: { url: "https://lms.example/hook" } }),
        zt,
        zc,
        "zh-CN",
      ),
    ).toBe("Ana Admin 为“Networks 101”添加了发往 https://lms.example/hook 的 Webhook");
  });
});
