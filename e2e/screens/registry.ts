import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
} from "@playwright/test";
import type pg from "pg";

import { TIME_ZONE_COOKIE } from "../../lib/shared/i18n/locales";
import type { Messages } from "../../messages";
import { expect, type Candidate, type CreatedExam, type ExamInput, type StaffUser } from "../fixtures";

// The registry of screens: every page and state people reach, one file per screen in this folder
// (`<name>.screen.ts`, default export `defineScreen({...})`). One loop reads it: e2e/screens.spec.ts (axe-core,
// WCAG 2.2 AA, at 1280 px, and full-page pictures at 1280 and 390 px, in both languages). How to add a screen: e2e/screens/README.md.

/** The languages every screen is seen in, with the time zone a reader of each is likely to be in. */
export const LANGUAGES = {
  en: { locale: "en-US", timezoneId: "Europe/London" },
  "zh-CN": { locale: "zh-CN", timezoneId: "Asia/Shanghai" },
} as const;
export type Language = keyof typeof LANGUAGES;

/** Who has the screen's browser: nobody signed in (a candidate's join link is set up by the screen), or staff. */
export type Role = "anonymous" | StaffUser["role"];

/** What a screen's setup and its steps may use: the test's fixtures, its browser context, and the words. */
export type ScreenTools = {
  page: Page;
  context: BrowserContext;
  language: Language;
  role: Role;
  /** The staff member signed in to `context` (for a staff role). */
  staff: StaffUser | undefined;
  /** The interface messages in `language` (messages/<language>/*.json), for role and label locators. */
  words: Messages;
  /** `en` or `zh` by the screen's language: for test data that should read naturally in each. */
  pick: <T>(en: T, zh: T) => T;
  /** Another browser context with the same language and viewport; closed when the screen is done. */
  newContext: () => Promise<BrowserContext>;
  /** Signs a candidate in on `context` with their join token (what opening the join link does). */
  joinAs: (candidate: Candidate, context?: BrowserContext) => Promise<void>;
  /** Runs after the screen, even when it failed (a receiver to close, say). */
  onTeardown: (step: () => Promise<void>) => void;
  browser: Browser;
  server: { baseURL: string };
  sql: pg.Pool;
  adminApi: APIRequestContext;
  createExam: (overrides?: Partial<ExamInput>) => Promise<CreatedExam>;
  enrollCandidate: (
    examId: string,
    overrides?: { name?: string; email?: string; extraSeconds?: number; externalId?: string },
  ) => Promise<Candidate>;
  createStaff: (role: StaffUser["role"]) => Promise<StaffUser>;
  assignProctor: (examId: string, proctor: StaffUser) => Promise<void>;
  signIn: (context: BrowserContext, staff: StaffUser) => Promise<void>;
};

/**
 * What to wait for before a state is looked at: a locator that must be visible, or a function with its own
 * expectations (a count, a value, focus).
 */
export type Ready<D> = (page: Page, data: D, tools: ScreenTools) => Locator | Promise<void>;

/** How a state is photographed: the whole page (default), the first screen only (dialogs), or one element. */
export type Capture<D> = "full" | "viewport" | ((page: Page, data: D, tools: ScreenTools) => Locator);

export type ScreenState<D> = {
  /** Names the picture (`<viewport>-<language>-<screen>-<state>.png`) and the axe report. */
  name: string;
  /** Brings the page from the previous state to this one: a click, a fill, another URL. */
  act?: (page: Page, data: D, tools: ScreenTools) => Promise<void>;
  ready?: Ready<D>;
  capture?: Capture<D>;
  /** Some states are pictures only (a print preview): axe skips them. */
  skipAxe?: boolean;
};

export type Screen<D = unknown> = {
  /** Kebab-case, unique: the file's name without `.screen.ts`. */
  name: string;
  /** One run per role; default: anonymous. */
  roles?: readonly Role[];
  /** Default: both. */
  languages?: readonly Language[];
  /** A screen that builds a lot (several papers, a dead webhook delivery) may need more than 3 minutes. */
  timeoutMs?: number;
  /** Makes the rows the screen shows, through the API or Postgres, and returns what the steps need. */
  setup: (tools: ScreenTools) => Promise<D>;
  url: (data: D, tools: ScreenTools) => string;
  ready: Ready<D>;
  capture?: Capture<D>;
  /** Further states of the same page, in order, each reached from the one before. */
  states?: readonly ScreenState<D>[];
};

/** Typed identity: lets a screen's steps see the type of its setup's data. */
export function defineScreen<D>(screen: Screen<D>): Screen<D> {
  return screen;
}

const SCREENS_DIR = new URL("./", import.meta.url);

/** Every `*.screen.ts` in this folder, sorted by name. */
export async function loadScreens(): Promise<Screen[]> {
  const files = readdirSync(fileURLToPath(SCREENS_DIR))
    .filter((file) => file.endsWith(".screen.ts"))
    .sort();
  const screens = await Promise.all(
    files.map(async (file) => {
      const loaded = (await import(new URL(file, SCREENS_DIR).href)) as { default?: Screen<unknown> };
      const screen = loaded.default;
      if (!screen || `${screen.name}.screen.ts` !== file) {
        throw new Error(`e2e/screens/${file} must default-export defineScreen({ name: "${file.slice(0, -10)}" … })`);
      }
      return screen;
    }),
  );
  return screens;
}

const MESSAGES_DIR = new URL("../../messages/", import.meta.url);
const wordsCache = new Map<Language, Messages>();

/** messages/<language>/*.json, one namespace per file, as the app reads them. */
export function wordsOf(language: Language): Messages {
  const cached = wordsCache.get(language);
  if (cached) return cached;
  const folder = new URL(`${language}/`, MESSAGES_DIR);
  const words = Object.fromEntries(
    readdirSync(fileURLToPath(folder))
      .filter((file) => file.endsWith(".json"))
      .map((file) => [file.slice(0, -5), JSON.parse(readFileSync(new URL(file, folder), "utf8")) as unknown]),
  ) as Messages;
  wordsCache.set(language, words);
  return words;
}

/** Fills `{name}` placeholders of a message (plain ones only; plural forms are matched with a pattern instead). */
export function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** A state once ready: its full name, and what to photograph (the page in full, its first screen, or one element). */
export type StateToSee = { name: string; capture: "full" | "viewport" | Locator; skipAxe: boolean };

type RunOptions = {
  fixtures: Omit<
    ScreenTools,
    "page" | "context" | "language" | "role" | "staff" | "words" | "pick" | "newContext" | "joinAs" | "onTeardown"
  >;
  language: Language;
  role: Role;
  /** The viewport and device options of every context the screen opens. */
  device: BrowserContextOptions;
  /** Called once per state, when it is ready: axe looks at it, or a picture is taken. */
  onState: (page: Page, state: StateToSee) => Promise<void>;
};

/**
 * Sets the screen up in a fresh browser context (its language, time zone and viewport; signed in as `role`),
 * opens its URL, and walks its states, calling `onState` on each once it is ready.
 */
export async function runScreen(screen: Screen, options: RunOptions): Promise<void> {
  const { browser } = options.fixtures;
  const contextOptions: BrowserContextOptions = { ...options.device, ...LANGUAGES[options.language] };
  const contexts: BrowserContext[] = [];
  const teardown: (() => Promise<void>)[] = [];
  const newContext = async () => {
    const context = await browser.newContext(contextOptions);
    // The reader's zone, as the first page a browser opens would tell the server (components/i18n/time-zone-sync):
    // every page is drawn in it at once, with no refresh of the page while axe or the camera looks at it.
    await context.addCookies([
      { name: TIME_ZONE_COOKIE, value: LANGUAGES[options.language].timezoneId, url: options.fixtures.server.baseURL },
    ]);
    contexts.push(context);
    return context;
  };
  try {
    const context = await newContext();
    const page = await context.newPage();
    let staff: StaffUser | undefined;
    if (options.role !== "anonymous") {
      staff = await options.fixtures.createStaff(options.role);
      await options.fixtures.signIn(context, staff);
    }
    const tools: ScreenTools = {
      ...options.fixtures,
      page,
      context,
      language: options.language,
      role: options.role,
      staff,
      words: wordsOf(options.language),
      pick: (en, zh) => (options.language === "zh-CN" ? zh : en),
      newContext,
      joinAs: async (candidate, target = context) => {
        const response = await target.request.post("/api/session", { data: { joinToken: candidate.joinToken } });
        expect(response.status(), await response.text()).toBe(200);
      },
      onTeardown: (step) => teardown.push(step),
    };

    const data = await screen.setup(tools);
    await page.goto(screen.url(data, tools));
    await expect(page.locator("html")).toHaveAttribute("lang", options.language);
    const steps: ScreenState<unknown>[] = [
      { name: "", ready: screen.ready, capture: screen.capture },
      ...(screen.states ?? []),
    ];
    for (const step of steps) {
      await step.act?.(page, data, tools);
      const ready = await step.ready?.(page, data, tools);
      if (ready) await expect(ready).toBeVisible();
      const capture = step.capture ?? "full";
      await options.onState(page, {
        name: step.name ? `${screen.name}-${step.name}` : screen.name,
        capture: typeof capture === "function" ? capture(page, data, tools) : capture,
        skipAxe: step.skipAxe ?? false,
      });
    }
  } finally {
    for (const step of teardown.reverse()) await step();
    for (const context of contexts) await context.close();
  }
}
