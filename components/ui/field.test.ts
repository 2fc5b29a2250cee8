import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { Field, SelectField, TextAreaField } from "./field";
import { FormError, FormStatus } from "./form-error";

// The building blocks wire what every form used to wire by hand: the label names the control, the hint and
// the inline error describe it, and an error marks it invalid; the form's error and status are live regions.

// Node has no DOMParser: read the few attributes the assertions need from the markup itself.
function attributes(markup: string, tag: string): Record<string, string> {
  const match = new RegExp(`<${tag}\\b([^>]*)>`).exec(markup);
  if (!match) throw new Error(`no <${tag}> in ${markup}`);
  return Object.fromEntries([...match[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((pair) => [pair[1]!, pair[2]!]));
}

describe("Field", () => {
  it("labels the input and leaves it valid and undescribed without a hint or an error", () => {
    const markup = renderToString(createElement(Field, { id: "email", label: "Email", name: "email", type: "email" }));
    const input = attributes(markup, "input");

    expect(attributes(markup, "label").for).toBe("email");
    expect(input).toMatchObject({ id: "email", name: "email", type: "email" });
    expect(input["aria-invalid"]).toBeUndefined();
    expect(input["aria-describedby"]).toBeUndefined();
  });

  it("describes the input by its hint, its error and any other id, and marks it invalid", () => {
    const markup = renderToString(
      createElement(Field, {
        id: "minutes",
        label: "Minutes",
        hint: "Whole minutes",
        error: "Enter a number",
        describedBy: "form-error",
      }),
    );
    const input = attributes(markup, "input");

    expect(input["aria-invalid"]).toBe("true");
    expect(input["aria-describedby"]).toBe("minutes-hint minutes-error form-error");
    expect(markup).toContain('id="minutes-hint">Whole minutes</p>');
    expect(markup).toContain('id="minutes-error">Enter a number</p>');
  });

  it("makes an id when none is given, shared by the label and the control", () => {
    const markup = renderToString(createElement(TextAreaField, { label: "Reason", error: "Too long" }));
    const textarea = attributes(markup, "textarea");

    expect(textarea.id).toBeTruthy();
    expect(attributes(markup, "label").for).toBe(textarea.id);
    expect(textarea["aria-describedby"]).toBe(`${textarea.id}-error`);
  });
});

describe("SelectField", () => {
  it("lists its options in order with the chosen one selected", () => {
    const markup = renderToString(
      createElement(SelectField, {
        id: "role",
        label: "Role",
        defaultValue: "grader",
        options: [
          { value: "proctor", label: "Proctor" },
          { value: "grader", label: "Grader" },
        ],
      }),
    );

    expect(attributes(markup, "select").id).toBe("role");
    expect(markup).toMatch(/<option value="proctor">Proctor<\/option><option value="grader" selected="">Grader/);
  });
});

describe("FormError and FormStatus", () => {
  it("are live regions that exist while empty", () => {
    const error = renderToString(createElement(FormError, { id: "e" }));
    const status = renderToString(createElement(FormStatus, { message: "Added Pat" }));

    expect(attributes(error, "p")).toMatchObject({ id: "e", class: "form-error", role: "alert" });
    expect(attributes(status, "p")).toMatchObject({ class: "form-done", role: "status", "aria-live": "polite" });
    expect(status).toContain(">Added Pat</p>");
  });
});
