import { expect, test } from "../fixtures";
import { drawer, heartbeat, startThroughApi } from "../proctor/dashboard-page";

// Staff whose browser asks for Chinese get every staff page in Chinese — sign-in, the exam list, the live
// dashboard — with times in their own zone, named on the screen. The language menu in the header switches
// to English in place (what was typed stays), and the choice sticks across pages and visits (a cookie); an
// English browser sees English.

test.describe("Staff pages in a Chinese browser", () => {
  test.use({ locale: "zh-CN", timezoneId: "Asia/Shanghai" });
  // Several pages, each rendered by a production build on two shared cores.
  test.describe.configure({ timeout: 90_000 });

  test("sign-in, the exam list and the live dashboard are in Chinese", async ({
    page,
    server,
    createStaff,
    createExam,
    enrollCandidate,
    assignProctor,
  }) => {
    const admin = await createStaff("admin");
    const exam = await createExam();
    const waiting = await enrollCandidate(exam.id, { name: `Wang Wei ${Date.now() % 100_000}` });
    const working = await enrollCandidate(exam.id, { name: `Li Na ${Date.now() % 100_000}` });
    const started = await startThroughApi(server.baseURL, exam.id, working);
    await heartbeat(started, { online: true });
    const proctor = await createStaff("proctor");
    await assignProctor(exam.id, proctor);

    await page.goto("/signin");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: "工作人员登录" })).toBeVisible();
    await expect(page.getByText("供考试组织者和监考员使用。")).toBeVisible();
    // What is wrong with a field is said by the form, in Chinese (not by the browser, in its own language).
    await page.getByRole("button", { name: "登录" }).click();
    // Said beside the field it is about, which it describes (components/ui/field.tsx).
    await expect(page.getByLabel("电子邮箱")).toHaveAccessibleDescription(
      /请输入电子邮箱地址，例如 name@example\.org。/,
    );
    await expect(page.getByText("请输入电子邮箱地址，例如 name@example.org。")).toBeVisible();
    await expect(page.getByLabel("电子邮箱")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("电子邮箱").fill(admin.email);
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByLabel("密码")).toHaveAccessibleDescription(/请输入密码。/);
    await expect(page.getByLabel("密码")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("电子邮箱").fill(admin.email);
    await page.getByLabel("密码").fill("not the password");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "电子邮箱或密码不正确。" })).toBeVisible();
    await page.getByLabel("密码").fill(admin.password);
    await page.getByRole("button", { name: "登录" }).click();

    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "考试" })).toBeVisible();
    await expect(page.getByRole("button", { name: "退出登录" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: exam.title });
    await expect(row.getByRole("cell")).toHaveText(["已发布", "1小时", "始终开放", "5", "2", "1", "0"]);
    await expect(page.getByText("时间均为 Asia/Shanghai")).toBeVisible();

    await row.getByRole("link", { name: exam.title }).click();
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "题目（5）" })).toBeVisible();
    await expect(page.getByText("标准答案：6")).toBeVisible();
    await expect(page.getByRole("button", { name: "上传应急文件" })).toBeVisible();

    await page.getByRole("link", { name: "打开实时监考面板" }).click();
    const candidateRow = (name: string) =>
      page.getByRole("table", { name: "考生" }).getByRole("row").filter({ hasText: name });
    await expect(page).toHaveURL(`/proctor/exams/${exam.id}`);
    await expect(page.getByRole("status", { name: "实时更新" })).toHaveText("实时");
    await expect(page.getByText("共 2 名考生", { exact: true })).toBeVisible();
    const counters = page.getByRole("group", { name: "按状态筛选" });
    await expect(counters.getByRole("button", { name: /在线/ })).toContainText("1");
    await expect(candidateRow(working.name)).toContainText("在线");
    await expect(candidateRow(working.name)).toContainText("已同步");
    await expect(candidateRow(waiting.name)).toContainText("未开始");
    await expect(page.getByRole("columnheader", { name: "剩余时间" })).toBeVisible();

    await candidateRow(waiting.name).click();
    const details = drawer(page, waiting.name);
    await expect(details).toContainText("未给予额外时间。");
    await expect(details).toContainText("已登记为考生。");
    await details.getByRole("button", { name: "延长时间" }).click();
    const dialog = page.getByRole("dialog", { name: `为 ${waiting.name} 延长时间` });
    await dialog.getByRole("button", { name: "延长", exact: true }).click();
    // Said beside the field it is about (components/ui/reason-dialog.tsx), which it describes.
    await expect(dialog.getByLabel("原因")).toHaveAccessibleDescription(/请填写原因：它会连同您的姓名记入审计日志。/);
    // The error goes as soon as what is typed is acceptable, not at the next press.
    await dialog.getByLabel("原因").fill("考场停电");
    await expect(dialog.getByLabel("原因")).not.toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("原因")).not.toHaveAccessibleDescription(/请填写原因/);
    await dialog.getByLabel("自定义").check();
    await dialog.getByLabel("分钟数").fill("2000");
    await dialog.getByRole("button", { name: "延长", exact: true }).click();
    await expect(dialog.getByLabel("分钟数")).toHaveAccessibleDescription(/分钟数：请输入 1 到 1,440 之间的整数。/);
    await dialog.getByLabel("10 分钟").check();
    await dialog.getByRole("button", { name: "延长", exact: true }).click();
    await expect(dialog.getByRole("status")).toHaveText("已延长 10 分钟。考生开始作答时生效。");
  });

  test("the language menu changes the page's language and leaves what was typed where it is", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("电子邮箱").fill("typed.before.switching@example.org");
    await page.getByLabel("密码").fill("half a password");

    await page.getByLabel("语言").selectOption("en");
    await expect(page.getByRole("heading", { level: 1, name: "Staff sign-in" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByLabel("Email")).toHaveValue("typed.before.switching@example.org");
    await expect(page.getByLabel("Password")).toHaveValue("half a password");
  });

  test("the language menu switches to English, and English stays on every page after", async ({
    page,
    context,
    createStaff,
    createExam,
    signIn,
  }) => {
    const admin = await createStaff("admin");
    const exam = await createExam();
    await signIn(context, admin);

    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "考试" })).toBeVisible();
    await page.getByLabel("语言").selectOption("en");
    await expect(page.getByRole("heading", { level: 1, name: "Exams" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    expect((await context.cookies()).find((cookie) => cookie.name === "holdfast_locale")?.value).toBe("en");

    await page.getByRole("link", { name: "Proctoring" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "All exams" })).toBeVisible();
    await page.goto(`/proctor/exams/${exam.id}`);
    await expect(page.getByRole("status", { name: "Live updates" })).toHaveText("Live");
    await expect(page.getByText("0 candidates", { exact: true })).toBeVisible();

    // Another visit of the same browser: still English, although it asks for Chinese.
    const later = await context.newPage();
    await later.goto("/signin?next=%2Fadmin");
    await expect(later).toHaveURL("/admin");
    await expect(later.locator("html")).toHaveAttribute("lang", "en");
    await expect(later.getByRole("heading", { level: 1, name: "Exams" })).toBeVisible();

    // And back to Chinese from the same menu.
    await later.getByLabel("Language").selectOption("zh-CN");
    await expect(later.getByRole("heading", { level: 1, name: "考试" })).toBeVisible();
    await expect(later.locator("html")).toHaveAttribute("lang", "zh-CN");
  });
});

test.describe("Staff pages in an English browser", () => {
  test.use({ locale: "en-US" });

  test("sign-in and the exam list are in English", async ({ page, createStaff, createExam }) => {
    const admin = await createStaff("admin");
    const exam = await createExam();

    await page.goto("/signin");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1, name: "Staff sign-in" })).toBeVisible();
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Exams" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: exam.title });
    await expect(row.getByRole("cell")).toHaveText(["Published", "1 hour", "Always open", "5", "0", "0", "0"]);
    await expect(page.getByText(/^Times in /)).toBeVisible();
  });
});
