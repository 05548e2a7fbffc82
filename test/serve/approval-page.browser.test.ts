/**
 * The approval page in a real headless Chromium (Debian's `chromium`, as the report's browser
 * tests use): a lazy run submitted over the API shows up with its plan drawn by the dry-run
 * report, is approved by a click, and finishes; a rejection with feedback and an edited plan go
 * through the page too; the page fetches nothing but from its server. Without a browser this
 * file fails with a message saying how to get one.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlanServer } from '../../src/serve/index.js';
import { openPage, useChromium } from '../report/browser-page.js';
import { call, PLAN, runWhenEnded, serve } from './helpers.js';

const TIMEOUT = 120_000;
const OUT = join(import.meta.dirname, '..', '..', 'test-output', 'serve');

const chromium = useChromium();
beforeAll(() => mkdirSync(OUT, { recursive: true }));

/** Opens the page and collects console errors, page errors and requests to anywhere else. */
function open(server: PlanServer, fragment = ''): Promise<{ page: Page; problems: string[] }> {
  return openPage(chromium.browser, `${server.url}/${fragment}`, {
    viewport: { width: 1300, height: 900 },
    origins: [server.url, 'about:'],
  });
}

describe('the approval page in Chromium', () => {
  it(
    'a lazy run submitted over the API is shown with its dry-run report, approved by a click, and finishes',
    async () => {
      const server = await serve();
      const { page, problems } = await open(server);
      try {
        const { body } = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' });
        // The page hears of it on its event stream: no reload.
        const card = page.locator('[data-approval-id][data-kind="plan"]');
        await card.waitFor({ timeout: 30_000 });
        await expect(card.locator('h3').textContent()).resolves.toBe(`Plan of run ${body.id}`);
        await expect(card.locator('.summary').textContent()).resolves.toContain('critical path: w → g');
        // The plan drawn as the report draws it: one node per call, inside the card's frame.
        const report = page.frameLocator('iframe.report');
        await report.locator('html[data-ready="true"]').waitFor({ timeout: 30_000 });
        expect(await report.locator('#graph-svg g.n').count()).toBe(2);
        const row = page.locator(`tr[data-run-id="${body.id}"] td.status`);
        await expect(row.textContent()).resolves.toBe('awaiting_approval');

        await page.screenshot({ path: join(OUT, 'approval-page.png'), fullPage: true });
        await card.locator('button.approve').click();
        const run = await runWhenEnded(server, body.id);
        expect(run.status).toBe('succeeded');
        expect(run.state).toEqual({ weather: { city: 'Paris', sunny: true }, greeting: 'hello Paris' });
        // The page shows it: the card gone, the run's status live.
        await page
          .locator(`tr[data-run-id="${body.id}"] td.status[data-status="succeeded"]`)
          .waitFor({ timeout: 30_000 });
        await page.locator('[data-approval-id]').waitFor({ state: 'detached', timeout: 30_000 });
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    'rejects with feedback, and approves an edited plan typed into the page',
    async () => {
      const server = await serve({ token: 'page-token' });
      const auth = { authorization: 'Bearer page-token' };
      // The token comes in the fragment, which never reaches the server.
      const { page, problems } = await open(server, '#token=page-token');
      try {
        const rejected = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' }, auth);
        const card = page.locator('[data-approval-id]');
        await card.waitFor({ timeout: 30_000 });
        await card.locator('input.feedback').fill('not now');
        await card.locator('button.reject').click();
        expect((await runWhenEnded(server, rejected.body.id, auth)).status).toBe('rejected');
        await card.waitFor({ state: 'detached', timeout: 30_000 });

        const edited = await call(server, 'POST', '/api/runs', { plan: PLAN, mode: 'lazy' }, auth);
        await card.waitFor({ timeout: 30_000 });
        await card.locator('details.edit summary').click();
        await card
          .locator('textarea.plan-json')
          .fill(JSON.stringify([{ _tool: 'greet', name: 'Grace', _outputPath: '†state.greeting' }]));
        await card.locator('button.approve-edited').click();
        const run = await runWhenEnded(server, edited.body.id, auth);
        expect(run).toMatchObject({ status: 'succeeded', edited: true, state: { greeting: 'hello Grace' } });
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );
});
