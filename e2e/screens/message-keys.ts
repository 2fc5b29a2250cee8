import type { Page } from "@playwright/test";

import { messageKeyFinder } from "../../messages/message-keys";
import { expect } from "../fixtures";
import { wordsOf } from "./registry";

const messageKeysIn = messageKeyFinder(wordsOf("en"));

/**
 * What a reader meets on the page: its title and visible text, what its live regions, alerts and visually hidden
 * parts say (read aloud though not seen), and the accessible names and hints given as attributes.
 */
async function readableText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const region of document.querySelectorAll(
      "[aria-live], [role=status], [role=alert], [role=log], [role=timer], .visually-hidden",
    ))
      texts.push(region.textContent ?? "");
    for (const element of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
      for (const name of ["aria-label", "title", "placeholder", "alt"]) {
        const value = element.getAttribute(name);
        if (value !== null) texts.push(value);
      }
    return texts;
  });
}

/** Fails, naming them, when text a reader meets on the page is a message key instead of its sentence. */
export async function expectNoMessageKeys(page: Page, state: string, language: string) {
  const found = new Set<string>();
  for (const text of await readableText(page)) for (const key of messageKeysIn(text)) found.add(key);
  expect([...found], `${state} [${language}]: message keys instead of their sentences`).toEqual([]);
}
