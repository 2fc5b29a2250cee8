import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { MESSAGES } from "@/messages";
import { PAUSE_LIMITS, PauseSchema } from "@/lib/shared/schemas/pauses";
import { ForceSubmitSchema } from "@/lib/shared/schemas/proctor-actions";
import { EXTEND_LIMITS, ExtendSchema } from "@/lib/shared/schemas/proctor";

import { checkReason } from "./reason-check";
import { ReasonDialog, type ReasonDialogProps } from "./reason-dialog";

// The dialog refuses a reason before sending exactly when the API would: its check and the route's schema agree
// on every boundary (blank, padded, at and past each limit), so a proctor never meets a server error the form
// could have named beside the field, and the form never refuses what the server would take.
const SAMPLES = [
  "",
  "   ",
  "ab",
  "  ab  ",
  "abc",
  "  abc  ",
  "Fire alarm in room 2",
  "x".repeat(EXTEND_LIMITS.maxReasonLength),
  ` ${"x".repeat(EXTEND_LIMITS.maxReasonLength)} `,
  "x".repeat(EXTEND_LIMITS.maxReasonLength + 1),
];

describe("checkReason", () => {
  it("agrees with the pause schema (required, 3 to 500 characters after trimming)", () => {
    for (const reason of SAMPLES) {
      const problem = checkReason(reason, {
        isRequired: true,
        minLength: PAUSE_LIMITS.minReasonLength,
        maxLength: PAUSE_LIMITS.maxReasonLength,
      });
      expect({ reason, isAccepted: problem === null }).toEqual({
        reason,
        isAccepted: PauseSchema.safeParse({ reason }).success,
      });
    }
  });

  it("agrees with the extend schema", () => {
    for (const reason of SAMPLES) {
      const problem = checkReason(reason, {
        isRequired: true,
        minLength: EXTEND_LIMITS.minReasonLength,
        maxLength: EXTEND_LIMITS.maxReasonLength,
      });
      expect({ reason, isAccepted: problem === null }).toEqual({
        reason,
        isAccepted: ExtendSchema.safeParse({ seconds: 600, reason }).success,
      });
    }
  });

  it("agrees with the force-submit schema, whose reason is optional (an empty one is left out of the body)", () => {
    for (const reason of SAMPLES) {
      const problem = checkReason(reason, { isRequired: false, maxLength: EXTEND_LIMITS.maxReasonLength });
      const trimmed = reason.trim();
      expect({ reason, isAccepted: problem === null }).toEqual({
        reason,
        isAccepted: ForceSubmitSchema.safeParse(trimmed ? { reason: trimmed } : {}).success,
      });
    }
  });

  it("names the problem: missing, too short, too long", () => {
    const limits = { isRequired: true, minLength: 3, maxLength: 5 };
    expect(checkReason(" \n ", limits)).toBe("missing");
    expect(checkReason(" ab ", limits)).toBe("tooShort");
    expect(checkReason("abcdef", limits)).toBe("tooLong");
    expect(checkReason(" abcde ", limits)).toBeNull();
  });
});

function render(props: Partial<ReasonDialogProps>): string {
  const all: ReasonDialogProps = {
    title: "Pause the whole exam",
    intro: "Every running clock stops.",
    reason: {
      id: "pause-reason",
      label: "Reason (shown to candidates)",
      placeholder: "For example: fire alarm",
      isRequired: true,
      minLength: 3,
      maxLength: 500,
      describeProblem: (problem) => problem,
    },
    onConfirm: () => undefined,
    isPending: false,
    error: null,
    done: null,
    confirmLabel: "Pause",
    pendingLabel: "Sending…",
    onClose: () => undefined,
    ...props,
  };
  // `children` goes in as createElement's third argument; the props type still wants the key.
  const intl: ComponentProps<typeof NextIntlClientProvider> = {
    locale: "en",
    messages: { common: MESSAGES.en.common },
    timeZone: "UTC",
    children: undefined,
  };
  return renderToStaticMarkup(createElement(NextIntlClientProvider, intl, createElement(ReasonDialog, all)));
}

describe("ReasonDialog", () => {
  it("is a dialog named by its title and described by its intro, with the reason labelled and bounded", () => {
    const html = render({});
    const dialog = /<dialog[^>]*aria-labelledby="([^"]+)"[^>]*aria-describedby="([^"]+)"/.exec(html);
    expect(dialog).not.toBeNull();
    expect(html).toMatch(new RegExp(`<h2 id="${dialog![1]}"[^>]*>Pause the whole exam</h2>`));
    expect(html).toContain(`<p id="${dialog![2]}">Every running clock stops.</p>`);
    expect(html).toContain('<label for="pause-reason">Reason (shown to candidates)</label>');
    const textarea = /<textarea([^>]*)>/.exec(html)?.[1] ?? "";
    for (const attribute of ['id="pause-reason"', 'rows="3"', 'required=""', 'maxLength="500"']) {
      expect(textarea).toContain(attribute);
    }
    // No error yet: the field is not marked invalid, and the alert for the server's refusal is there but empty.
    expect(html).not.toContain("aria-invalid");
    expect(html).toContain('<p class="form-error" role="alert" aria-live="assertive"></p>');
    expect(html).toContain(">Cancel</button>");
    expect(html).toMatch(/<button type="submit" class="button button--primary">Pause<\/button>/);
  });

  it("says the server's refusal in its alert, and disables the confirm button while the request runs", () => {
    const html = render({ error: "This exam is closed.", isPending: true });
    expect(html).toContain('<p class="form-error" role="alert" aria-live="assertive">This exam is closed.</p>');
    expect(html).toMatch(/<button type="submit" class="button button--primary" disabled="">Sending…<\/button>/);
  });

  it("has no textarea for an action without a reason (resume), and renders the extra fields in the form", () => {
    const html = render({ reason: null, children: createElement("fieldset", { id: "extra" }) });
    expect(html).not.toContain("<textarea");
    expect(html).toMatch(/<form[^>]*>.*<fieldset id="extra"><\/fieldset>.*<\/form>/s);
  });

  it("gives way to what happened, with one Close button, once done", () => {
    const html = render({ done: createElement("p", { role: "status" }, "Paused 3 running attempts.") });
    expect(html).not.toContain("<form");
    expect(html).not.toContain("aria-describedby");
    expect(html).toContain('<p role="status">Paused 3 running attempts.</p>');
    expect(html).toMatch(/<button type="button" class="button button--primary">Close<\/button>/);
  });

  it("marks an action that cannot be taken back in the danger colour", () => {
    const html = render({ tone: "danger", confirmLabel: "Force submit now" });
    expect(html).toMatch(/<button type="submit" class="button [^"]+">Force submit now<\/button>/);
    expect(html).not.toMatch(/button--primary">Force submit now/);
  });
});
