import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Where the console test saves its screenshots (gitignored). */
export const artifactsDir = join(import.meta.dirname, '../../test-artifacts/console');

/** Headless Chromium as installed on the machine; nothing is downloaded. */
export async function launchChromium(): Promise<Browser> {
  await mkdir(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, for asserting that nothing (a CSP refusal above all) went wrong. */
  problems: string[];
}

/** A page in its own context (its own sessionStorage), recording every console error and page error. */
export async function openPage(browser: Browser, options: { width?: number; height?: number } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: 'light',
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, context, problems };
}

/** Problems other than the HTTP errors a test provokes on purpose (Chromium logs each failed fetch). */
export function unexpectedProblems(problems: string[]): string[] {
  return problems.filter((problem) => !/Failed to load resource|net::ERR_FAILED/.test(problem));
}

export function cspProblems(problems: string[]): string[] {
  return problems.filter((problem) => /Content Security Policy|Refused to (load|execute|apply|connect)/i.test(problem));
}

/** Signs in through the form with the keyboard alone: the key field has focus, the key is typed, Enter submits. */
export async function signInByKeyboard(page: Page, origin: string, key: string): Promise<void> {
  await page.goto(`${origin}/console/`);
  const field = page.getByLabel('API key');
  await field.waitFor();
  // The field is focused on load; Tab from the page start reaches it otherwise.
  if (!(await field.evaluate((element) => element === document.activeElement))) await page.keyboard.press('Tab');
  assert.ok(await field.evaluate((element) => element === document.activeElement), 'the API key field has focus');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
}

/** Signs in by filling the form (for flows whose subject is not the keyboard). */
export async function signIn(page: Page, origin: string, key: string, route = ''): Promise<void> {
  await page.goto(`${origin}/console/${route ? `#/${route}` : ''}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Waits until `check` holds, polling; fails with `message` after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, message: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out: ${message}`);
    await sleep(100);
  }
}

/** Waits until a locator's text matches. */
export async function waitForText(locator: Locator, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  let text = '';
  await waitUntil(
    async () => {
      text = (await locator.textContent().catch(() => null)) ?? '';
      return pattern.test(text);
    },
    `text ${pattern} (last seen: ${JSON.stringify(text.slice(0, 300))})`,
    timeoutMs,
  );
  return text;
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage });
}

/** True when the document is no wider than the viewport (nothing scrolls sideways but inner containers). */
export async function fitsViewportWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
