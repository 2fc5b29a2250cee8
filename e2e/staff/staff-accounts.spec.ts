import type { Page } from "@playwright/test";

import enAccount from "../../messages/en/account.json" with { type: "json" };
import enCommon from "../../messages/en/common.json" with { type: "json" };
import enErrors from "../../messages/en/errors.json" with { type: "json" };
import enStaff from "../../messages/en/staff.json" with { type: "json" };
import zhAccount from "../../messages/zh-CN/account.json" with { type: "json" };
import zhCommon from "../../messages/zh-CN/common.json" with { type: "json" };
import zhErrors from "../../messages/zh-CN/errors.json" with { type: "json" };
import zhStaff from "../../messages/zh-CN/staff.json" with { type: "json" };
import { expect, test } from "../fixtures";

// An admin gives a new proctor an account and an exam to watch, entirely in the browser, in English and in
// Chinese: the admin adds the account, copies the temporary password shown once, assigns the proctor on the
// exam's page; the proctor signs in with it, is made to choose their own password before anything else, and
// then sees exactly the one exam they were assigned.

const CATALOGS = {
  "en-US": { account: enAccount, common: enCommon, staff: enStaff, errors: enErrors },
  "zh-CN": { account: zhAccount, common: zhCommon, staff: zhStaff, errors: zhErrors },
} as const;

async function signInThroughForm(page: Page, email: string, password: string, labels: typeof enStaff.signIn) {
  await page.goto("/signin");
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: labels.submit }).click();
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const { account: m, common, staff, errors } = CATALOGS[locale];

  test.describe(`Staff accounts (${locale})`, () => {
    test.use({ locale });
    // Several pages of a production build, and two argon2 hashes, on two shared cores.
    test.describe.configure({ timeout: 120_000 });

    test("an admin creates a proctor and assigns an exam; the proctor changes the password and sees only it", async ({
      page,
      browser,
      createStaff,
      createExam,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const [exam, otherExam] = await Promise.all([createExam(), createExam()]);
      const tag = `${Date.now() % 1_000_000}-${locale.toLowerCase()}`;
      const proctorEmail = `new-proctor-${tag}@example.org`;
      const proctorName = `Pat New ${tag}`;

      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await signIn(page.context(), admin);
      await page.goto("/admin");
      await page.getByRole("navigation").getByRole("link", { name: common.navStaff, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: m.staff.title })).toBeVisible();

      // A bad email is named inline, in the page's language, and nothing is sent.
      await page.getByLabel(m.staff.email).fill("not an email");
      await page.getByLabel(m.staff.name).fill(proctorName);
      await page.getByRole("button", { name: m.staff.create }).click();
      await expect(page.getByRole("alert").filter({ hasText: m.staff.hints.email })).toBeVisible();
      await expect(page.getByLabel(m.staff.email)).toHaveAttribute("aria-invalid", "true");

      await page.getByLabel(m.staff.email).fill(proctorEmail);
      await page.getByLabel(m.staff.role).selectOption("proctor");
      await page.getByRole("button", { name: m.staff.create }).click();
      const shown = page.getByRole("region", { name: m.staff.temporaryHeading.replace("{name}", proctorName) });
      await expect(shown).toBeVisible();
      const temporaryPassword = (await shown.getByTestId("temporary-password").textContent()) ?? "";
      expect(temporaryPassword).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){5}$/);
      await shown.getByRole("button", { name: m.staff.copy }).click();
      await expect(shown.getByRole("status")).toHaveText(m.staff.copied);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(temporaryPassword);
      const row = page.getByRole("row").filter({ hasText: proctorEmail });
      await expect(row).toContainText(m.staff.states.mustChange);

      // The same email again is refused, in the page's language.
      await page.getByLabel(m.staff.email).fill(proctorEmail.toUpperCase());
      await page.getByLabel(m.staff.name).fill("Someone else");
      await page.getByRole("button", { name: m.staff.create }).click();
      await expect(page.getByRole("alert").filter({ hasText: errors.codes.STAFF_EMAIL_TAKEN })).toBeVisible();
      await expect(page.getByLabel(m.staff.email)).toHaveAttribute("aria-invalid", "true");

      // Assign the proctor on the exam's page.
      await page.goto(`/admin/exams/${exam.id}`);
      await expect(page.getByRole("heading", { level: 2, name: m.proctors.heading })).toBeVisible();
      await page.getByLabel(m.proctors.choose).selectOption({ label: `${proctorName} (${proctorEmail})` });
      await page.getByRole("button", { name: m.proctors.assign, exact: true }).click();
      await expect(
        page.getByRole("status").filter({ hasText: m.proctors.assigned.replace("{name}", proctorName) }),
      ).toBeVisible();
      await expect(page.getByRole("list", { name: m.proctors.listLabel })).toContainText(proctorName);

      // The proctor signs in with the temporary password and must choose their own first.
      const proctorContext = await browser.newContext({ locale });
      try {
        const proctorPage = await proctorContext.newPage();
        await signInThroughForm(proctorPage, proctorEmail, temporaryPassword, staff.signIn);
        await expect(proctorPage).toHaveURL(/\/account\?next=/);
        await expect(proctorPage.getByText(m.account.mustChange)).toBeVisible();
        // Every other page sends them back here.
        await proctorPage.goto(`/proctor/exams/${exam.id}`);
        await expect(proctorPage).toHaveURL(/\/account\?next=/);
        const api = await proctorContext.request.get(`/api/proctor/exams/${exam.id}/candidates`);
        expect(api.status()).toBe(403);
        expect((await api.json()).error.code).toBe("PASSWORD_CHANGE_REQUIRED");

        await proctorPage.getByLabel(m.account.currentPasswordTemporary).fill(temporaryPassword);
        await proctorPage.getByLabel(m.account.newPassword, { exact: true }).fill("short");
        await proctorPage.getByLabel(m.account.confirmPassword, { exact: true }).fill("short");
        await proctorPage.getByRole("button", { name: m.account.submit }).click();
        // Said beside the new password, which it describes.
        await expect(proctorPage.getByText(m.account.problems.too_short.replace("{min}", "12"))).toBeVisible();
        await expect(proctorPage.getByLabel(m.account.newPassword, { exact: true })).toHaveAttribute(
          "aria-invalid",
          "true",
        );

        const ownPassword = `my own long passphrase ${tag}`;
        await proctorPage.getByLabel(m.account.newPassword, { exact: true }).fill(ownPassword);
        await proctorPage.getByLabel(m.account.confirmPassword, { exact: true }).fill(ownPassword);
        await proctorPage.getByRole("button", { name: m.account.submit }).click();
        await expect(proctorPage).toHaveURL(new RegExp(`/proctor/exams/${exam.id}$`));
        await proctorPage.goto("/proctor");
        await expect(proctorPage.getByRole("link", { name: exam.title })).toBeVisible();
        await expect(proctorPage.getByRole("link", { name: otherExam.title })).toHaveCount(0);
        expect((await proctorContext.request.get(`/api/proctor/exams/${otherExam.id}/candidates`)).status()).toBe(404);
      } finally {
        await proctorContext.close();
      }
    });

    test("disabling a signed-in proctor ends their session at once; sign out everywhere ends the admin's", async ({
      page,
      browser,
      createStaff,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const proctor = await createStaff("proctor");
      const proctorContext = await browser.newContext({ locale });
      try {
        await signIn(proctorContext, proctor);
        expect((await proctorContext.request.get("/proctor")).status()).toBe(200);

        await signIn(page.context(), admin);
        await page.goto("/admin/staff");
        const row = page.getByRole("row").filter({ hasText: proctor.email });
        const disableButton = row.getByRole("button", { name: `${m.staff.disable}: ${proctor.name}` });
        // An in-page confirmation, in the page's language: focus starts on its question, Escape cancels and
        // changes nothing, and focus goes back to the button that opened it.
        const confirmation = page.getByRole("dialog", {
          name: m.staff.confirmDisableTitle.replace("{name}", proctor.name),
        });
        await disableButton.click();
        await expect(confirmation).toBeVisible();
        await expect(confirmation).toHaveAccessibleDescription(m.staff.confirmDisable);
        await expect(confirmation.getByRole("heading", { level: 2 })).toBeFocused();
        await page.keyboard.press("Escape");
        await expect(confirmation).toHaveCount(0);
        await expect(disableButton).toBeFocused();
        await expect(row).toContainText(m.staff.states.active);
        expect((await proctorContext.request.get("/proctor")).status()).toBe(200);

        await disableButton.click();
        await confirmation.getByRole("button", { name: m.staff.disable, exact: true }).click();
        await expect(
          page.getByRole("status").filter({ hasText: m.staff.disabled.replace("{name}", proctor.name) }),
        ).toBeVisible();
        await expect(row).toContainText(m.staff.states.disabled);

        const proctorPage = await proctorContext.newPage();
        await proctorPage.goto("/proctor");
        await expect(proctorPage).toHaveURL(/\/signin/);
      } finally {
        await proctorContext.close();
      }

      await page.getByRole("navigation").getByRole("link", { name: common.navAccount, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: m.account.title })).toBeVisible();
      await page.getByRole("button", { name: m.account.signOutEverywhere }).click();
      await expect(page).toHaveURL(/\/signin/);
      await page.goto("/admin");
      await expect(page).toHaveURL(/\/signin/);
    });
  });
}
