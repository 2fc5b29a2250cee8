import { expect, test } from "./fixtures";
import { openExam, question } from "./exam/exam-page";

test("debug two contexts", async ({ browser, createExam, enrollCandidate }) => {
  const exam = await createExam();
  const candidate = await enrollCandidate(exam.id);
  const laptopContext = await browser.newContext();
  const phoneContext = await browser.newContext();
  const laptop = await laptopContext.newPage();
  const phone = await phoneContext.newPage();
  for (const [name, p] of [["laptop", laptop], ["phone", phone]] as const) {
    p.on("console", (m) => console.log(name, "console", m.type(), m.text()));
    p.on("pageerror", (e) => console.log(name, "pageerror", e.message));
    p.on("response", (r) => { if (r.status() >= 400) console.log(name, "HTTP", r.status(), r.request().method(), r.url()); });
    p.on("request", (r) => { if (r.url().includes("/api/")) console.log(name, "REQ", r.method(), r.url(), Date.now() % 100000); });
  }
  await openExam(laptop, candidate);
  console.log("laptop ready");
  await phone.goto(candidate.joinUrl);
  await phone.getByRole("button", { name: /^(Start|Resume)$/ }).click();
  await phone.waitForTimeout(3000);
  console.log("phone text:", (await phone.locator("main").innerText()).slice(0, 300));
  await expect(question(phone, 3).getByLabel("Your answer")).toBeEditable();
});
