// The playground's browser tests share this: the page built as `npm run playground` builds it,
// and a headless Chromium from the lockfile (@sparticuz/chromium, pinned to 147.0.0, the newest
// release that still declares Node >= 20.11). CHROMIUM_PATH points the tests at another Chrome.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import packagedChromium from '@sparticuz/chromium';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The browser to drive: CHROMIUM_PATH when set, else the one shipped in @sparticuz/chromium. */
export async function launchBrowser(): Promise<Browser> {
  const own = process.env.CHROMIUM_PATH;
  if (own !== undefined && own !== '') return chromium.launch({ executablePath: own, headless: true, args: ['--no-sandbox'] });
  // The package's flags, less --single-process: a suite may open a second tab, which one process cannot hold.
  const args = packagedChromium.args.filter((flag) => flag !== '--single-process');
  return chromium.launch({ executablePath: await packagedChromium.executablePath(), headless: true, args });
}

/** Builds the page into its own scratch folder (each test file its own: files run in parallel); its file:// address. */
export function buildPage(name: string): string {
  const out = resolve('.tmp', name);
  mkdirSync(out, { recursive: true });
  const page = join(out, 'index.html');
  // As `npm run playground` does (typecheck of the page's code included).
  execFileSync(process.execPath, ['playground/build.mjs', '--out', page], { encoding: 'utf8', stdio: 'pipe' });
  return pathToFileURL(page).href;
}

/** Waits until the page has done everything it was asked (its queue is empty). */
export function ready(page: Page) {
  return page.waitForSelector('body[data-state="ready"]', { timeout: 10_000 });
}

/** Errors and warnings the page logs, and uncaught errors: a test ends by expecting none. */
export function watch(page: Page, problems: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
}

/** A browser with the page open at `url` (desktop size), watched for errors and ready. */
export async function openPage(url: string, problems: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  watch(page, problems);
  await page.goto(url);
  await ready(page);
  return { browser, page };
}

/** The playground's parts a test reaches for, found by their roles on the page as it is when called (`page` may be set later, in beforeAll). */
export function playground(page: () => Page) {
  const map = () => page().getByRole('group', { name: 'Map', exact: true });
  const chatBox = () => page().getByRole('combobox', { name: /^Message as / });
  return {
    map,
    token: (name: string) => map().locator(`[role="button"][data-token="${name}"]`),
    card: (name: string) => page().getByRole('article', { name, exact: true }),
    log: () => page().getByRole('log', { name: 'Chat' }),
    chatBox,
    /** Sends a line as the speaker, and waits until the page has done with it. */
    async say(line: string) {
      await chatBox().fill(line);
      await chatBox().press('Enter');
      await ready(page());
    },
    async speakAs(name: string) {
      await page().getByRole('combobox', { name: 'Speak as' }).selectOption(name);
      await ready(page());
    },
  };
}
