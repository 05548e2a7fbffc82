/**
 * The headless Chromium of the browser tests (Debian's `chromium` package: npm test installs it
 * when it can; PLAN_CHROMIUM points at another binary): one browser per test file, and a fresh
 * page per test that records every console error or warning, page error and request to anywhere
 * but the page's own origin. Without a browser, a file using it fails saying how to get one.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.PLAN_CHROMIUM ?? '/usr/bin/chromium';

/** Starting Chromium on a loaded 2-core machine can take long; a hang still fails. */
const LAUNCH_TIMEOUT_MS = 120_000;

/** The file's browser, launched before its first test and closed after its last. */
export interface SharedBrowser {
  /** The browser, for use inside a test or hook (it exists once the file's beforeAll ran). */
  readonly browser: Browser;
}

/** Registers the file's beforeAll (launch) and afterAll (close) and gives the browser. */
export function useChromium(): SharedBrowser {
  let launched: Browser | undefined;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `the browser test needs Chromium at ${CHROMIUM}: install it with 'apt-get install -y chromium' (npm test does when it can), or point PLAN_CHROMIUM at a Chromium binary`,
      );
    }
    launched = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, LAUNCH_TIMEOUT_MS);
  afterAll(async () => {
    await launched?.close();
  });
  return {
    get browser(): Browser {
      if (!launched) throw new Error('the browser is launched in beforeAll: use it inside a test');
      return launched;
    },
  };
}

export interface OpenPageOptions {
  /**
   * The window's size in CSS pixels.
   * @default { width: 1400, height: 900 }
   */
  readonly viewport?: { readonly width: number; readonly height: number };
  /**
   * URL prefixes the page may request; any other request is a problem.
   * @default ['file:']
   */
  readonly origins?: readonly string[];
}

export interface OpenedPage {
  readonly page: Page;
  /** Console errors and warnings, page errors and requests elsewhere, as they happen. */
  readonly problems: string[];
}

/** A fresh page at `url`, returned once the page marks itself ready (html[data-ready="true"]). */
export async function openPage(
  browser: Browser,
  url: string,
  options: OpenPageOptions = {},
): Promise<OpenedPage> {
  const origins = options.origins ?? ['file:'];
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1400, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!origins.some((origin) => r.url().startsWith(origin))) problems.push(`network request: ${r.url()}`);
  });
  try {
    await page.goto(url);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  } catch (error) {
    await page.close();
    throw error;
  }
  return { page, problems };
}
