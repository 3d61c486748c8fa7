/**
 * Real headless Chromium for the page tests (Debian's `chromium` package, driven by
 * playwright-core; no browser is downloaded), a fresh profile per launch, and helpers that
 * click board points the way a user does.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { geometry } from '../../src/view/board-svg.js';
import { parsePoint } from '../../src/core/notation.js';
import { root } from '../cli/run.js';

export const CHROMIUM = process.env.GOMOKU_CHROMIUM ?? '/usr/bin/chromium';
export const ARTEFACTS = join(root, 'test-artifacts', 'serve');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close: () => Promise<void>;
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium), or set GOMOKU_CHROMIUM`);
  mkdirSync(ARTEFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'gomoku-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1200, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Click the board at a point (`h8`), as a user's mouse does. */
export async function clickPoint(page: Page, point: string, size = 15): Promise<void> {
  // the board's box (its picture is redrawn often; the box that holds it stays)
  const box = await page.locator('#board').boundingBox();
  if (!box) throw new Error('no board on the page');
  const q = parsePoint(point, size);
  if (!q.ok) throw new Error(q.error);
  const g = geometry(size);
  const k = box.width / g.width;
  const col = q.value % size;
  const row = (q.value - col) / size;
  await page.mouse.click(box.x + g.x(col) * k, box.y + g.y(row) * k);
}

/** The points of the stones on the board, by colour, sorted. */
export async function stones(page: Page): Promise<{ black: string[]; white: string[] }> {
  return page.evaluate(() => {
    const of = (c: string) => [...document.querySelectorAll(`#board circle.stone.${c}`)].map((e) => e.getAttribute('data-point')!);
    return { black: of('black').sort(), white: of('white').sort() };
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTEFACTS, `${name}.png`) });
}
