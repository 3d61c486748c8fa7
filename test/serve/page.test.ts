/**
 * The page of `gomoku serve` in real headless Chromium against the real server: what a user
 * does (click stones, analyse, solve, follow the book, SGF out and in, play the engine,
 * Swap2, a phone-sized screen). Screenshots of the main states go to test-artifacts/serve/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt } from '../cli/run.js';
import { serve, type Served } from './helpers.js';
import { ARTEFACTS, clickPoint, launch, shot, stones, type Browser } from './browser.js';

let s: Served;
let browser: Browser;
let page: Page;
/** What this run measured (written to test-artifacts/serve/timings.json). */
const timings: Record<string, unknown> = {};

async function open(query = '', p: Page = page): Promise<void> {
  await p.goto(`${s.url}${query}`);
  await p.waitForSelector('body[data-ready="1"]', { timeout: 10_000 });
}

beforeAll(async () => {
  ensureBuilt();
  browser = await launch();
  page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // cold start: from spawning `gomoku serve` to a page that has drawn its board and met the engine
  const t0 = performance.now();
  s = await serve('--max-time', '30000');
  await open();
  timings.coldStartToReadyMs = Math.round(performance.now() - t0);
  timings.serverStartMs = Math.round(s.startMs);
  expect(errors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  // when set-up failed (no Chromium) there is nothing to record, and its error is the one to show
  if (!s) return;
  expect(await s.stop()).toBe(0);
  writeFileSync(join(ARTEFACTS, 'timings.json'), JSON.stringify(timings, null, 2) + '\n');
});

describe('the page in Chromium', () => {
  test('loads quickly from a cold start of gomoku serve', () => {
    // the target is 1 s on an idle machine (docs/benchmarks.md); the test allows for a loaded one
    expect(timings.coldStartToReadyMs as number).toBeLessThan(30_000);
  });

  test('click to place stones: drawn at once, checked by the server, in the URL', async () => {
    await open();
    const clicks: number[] = [];
    for (const p of ['h8', 'i9', 'h9', 'i10']) {
      await clickPoint(page, p);
      await page.waitForFunction((n) => document.querySelectorAll('#board circle.stone').length === n, clicks.length + 1);
      await page.waitForFunction(() => document.body.dataset.clickMs !== undefined);
      clicks.push(Number(await page.evaluate(() => document.body.dataset.clickMs)));
      await page.evaluate(() => delete document.body.dataset.clickMs);
    }
    // the same measure on a blank page that only adds a circle: what this machine needs for any frame
    const blank = await browser.context.newPage();
    await blank.setContent('<svg id="s" width="600" height="600"></svg>');
    await blank.evaluate(() => {
      const w = window as unknown as { log: number[] };
      w.log = [];
      document.getElementById('s')!.addEventListener('pointerdown', (e) => {
        document.getElementById('s')!.insertAdjacentHTML('beforeend', `<circle cx="${e.offsetX}" cy="${e.offsetY}" r="10"/>`);
        requestAnimationFrame(() => setTimeout(() => w.log.push(performance.now() - e.timeStamp), 0));
      });
    });
    for (let i = 0; i < 4; i++) {
      await blank.mouse.click(100 + 60 * i, 100);
      await blank.waitForTimeout(100);
    }
    const floor = await blank.evaluate(() => (window as unknown as { log: number[] }).log);
    await blank.close();
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    timings.clickToPaintMs = clicks;
    timings.blankPageClickToPaintMs = floor.map((x) => +x.toFixed(1));
    // The 50-ms target is measured by `npm run bench:serve` (docs/benchmarks.md), not here: a
    // timed test fails on a loaded CI machine. This bound only catches a click that waits for
    // the server's search instead of drawing at once.
    expect(med(clicks)).toBeLessThan(1000 + med(floor));
    expect(await stones(page)).toEqual({ black: ['h8', 'h9'], white: ['i10', 'i9'] });
    await page.waitForFunction(() => document.querySelector('#status')!.textContent!.includes('last i10'));
    expect(await page.textContent('#status')).toBe('black to move · 4 stones · last i10');
    expect(new URL(page.url()).searchParams.get('p')).toBe('h8 i9 h9 i10');
    // an occupied point does nothing; undo and redo
    await clickPoint(page, 'h8');
    await page.click('#undo');
    expect((await stones(page)).white).toEqual(['i9']);
    await page.click('#redo');
    expect((await stones(page)).white).toEqual(['i10', 'i9']);
    // the threats overlay marks what `gomoku show --threats` marks
    await page.check('#threats');
    await page.waitForSelector('#board g.mark-mine');
    await shot(page, 'threats');
  });

  test('other sizes and the standard rule', async () => {
    await open();
    await page.selectOption('#size', '9');
    await page.selectOption('#rule', 'standard');
    await page.waitForFunction(() => document.querySelector('#board svg')!.getAttribute('viewBox') === '0 0 316 316');
    await clickPoint(page, 'e5', 9);
    await page.waitForFunction(() => document.querySelector('#status')!.textContent!.includes('last e5'));
    expect((await stones(page)).black).toEqual(['e5']);
    const url = new URL(page.url()).searchParams;
    expect([url.get('size'), url.get('rule'), url.get('p')]).toEqual(['9', 'standard', 'e5']);
    expect(await page.textContent('#pos-info')).toBe('9x9, standard');
  });

  test('analysis: start, the line changes as the engine searches, stop', async () => {
    await open('?p=h8+i9+h9+i10+h10');
    // count the readout's updates in the page itself (a poll from here would miss some)
    await page.evaluate(() => {
      const w = window as unknown as { updates: number; lines: Set<string> };
      w.updates = 0;
      w.lines = new Set();
      new MutationObserver(() => {
        w.updates++;
        w.lines.add(document.querySelector('#a-pv')!.textContent!);
      }).observe(document.querySelector('#panel-analyse')!, { subtree: true, childList: true, characterData: true });
    });
    await page.click('#analyse');
    await page.waitForTimeout(3000);
    const { updates, lines } = await page.evaluate(() => {
      const w = window as unknown as { updates: number; lines: Set<string> };
      return { updates: w.updates, lines: w.lines.size };
    });
    timings.analysisUpdatesPerSecond = +(updates / 3).toFixed(1);
    // the 4-a-second target is bench:serve's; here: the readout keeps updating
    expect(updates / 3).toBeGreaterThanOrEqual(1);
    expect(lines).toBeGreaterThan(2);
    expect(Number(await page.textContent('#a-depth'))).toBeGreaterThan(3);
    await page.waitForSelector('#board g.line');
    await shot(page, 'analysis');
    await page.click('#analyse');
    await page.waitForFunction(() => document.querySelector('#a-stage')!.textContent!.startsWith('done'));
    expect(await page.textContent('#analyse')).toBe('Start analysis');
  });

  test('solve a VCF: win … verified, and the certificate downloads', async () => {
    await open('?p=h8+h9+i8+i9+j8+j9');
    await page.click('#solve');
    await page.waitForFunction(() => document.querySelector('#s-result')!.textContent!.includes('verified'), undefined, { timeout: 20_000 });
    expect(await page.textContent('#s-result')).toBe('win for black by g8 (vcf) verified');
    expect(await page.textContent('#s-pv')).toBe('g8 f8 k8');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#s-cert')]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ winner: 'black' });
    await shot(page, 'solve');
  });

  test('the book overlay, and following the book by clicking its move', async () => {
    await open('?p=g9+g8+h9+j6+h8');
    await page.waitForSelector('#board g.mark-best');
    expect(await page.getAttribute('#board g.mark-best', 'data-point')).toBe('f9');
    // white to move: most of the book's replies here lose (the children are black's wins)
    expect(await page.locator('#board g.mark-loss').count()).toBeGreaterThan(10);
    await shot(page, 'book');
    await clickPoint(page, 'f9');
    await page.waitForFunction(() => document.querySelector('#status')!.textContent!.includes('last f9'));
    expect((await stones(page)).white).toContain('f9');
    expect(new URL(page.url()).searchParams.get('p')).toBe('g9 g8 h9 j6 h8 f9');
  });

  test('SGF out, a new board, SGF back in', async () => {
    await open('?p=B%3Ah8%2Ch9%3BW%3Ai9&to=white&then=i10+h10');
    expect(await page.inputValue('#postext')).toBe('B:h8,h9,h10;W:i9,i10');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#sgf-export')]);
    const sgfPath = join(ARTEFACTS, 'position.sgf');
    await download.saveAs(sgfPath);
    expect(readFileSync(sgfPath, 'utf8')).toContain('AB[hh][hg]AW[ig]PL[W]\n;W[if];B[hf])');
    await page.click('#new');
    await page.waitForFunction(() => document.querySelectorAll('#board circle.stone').length === 0);
    await page.setInputFiles('#sgf-import', sgfPath);
    await page.waitForFunction(() => document.querySelectorAll('#board circle.stone').length === 5);
    await page.waitForFunction(() => (document.querySelector('#postext') as HTMLTextAreaElement).value === 'B:h8,h9,h10;W:i9,i10');
    const url = new URL(page.url()).searchParams;
    expect([url.get('p'), url.get('then'), url.get('to')]).toEqual(['B:h8,h9;W:i9', 'i10 h10', 'white']);
    // a link reproduces the position
    const again = await browser.context.newPage();
    await open(`?${url.toString()}`, again);
    expect(await stones(again)).toEqual(await stones(page));
    await again.close();
  });

  test('play against the engine', async () => {
    await open();
    await page.selectOption('#engine-side', 'white');
    await page.selectOption('#move-time', '500');
    await clickPoint(page, 'h8');
    await page.waitForFunction(() => document.querySelectorAll('#board circle.stone').length === 2, undefined, { timeout: 15_000 });
    const [reply] = (await stones(page)).white;
    await clickPoint(page, reply === 'i9' ? 'g7' : 'i9');
    await page.waitForFunction(() => document.querySelectorAll('#board circle.stone').length === 4, undefined, { timeout: 15_000 });
    expect((await stones(page)).white).toHaveLength(2);
    await shot(page, 'play');
    await page.selectOption('#engine-side', 'none');
  });

  test('Swap2: the engine proposes, the user takes black, the engine plays white', async () => {
    await open();
    await page.selectOption('#move-time', '500');
    await page.click('#swap2-engine');
    await page.waitForSelector('#swap2-choices button');
    expect(await stones(page).then((x) => [x.black.length, x.white.length])).toEqual([2, 1]);
    await shot(page, 'swap2');
    await page.click('#swap2-choices button:has-text("Take black")');
    await page.waitForFunction(() => document.querySelectorAll('#board circle.stone').length === 4, undefined, { timeout: 15_000 });
    expect(await page.inputValue('#engine-side')).toBe('white');
    await page.selectOption('#engine-side', 'none');
  });

  test('works at a phone width of 390 px; closing the page ends its analysis', async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await open('?p=h8+i9+h9', phone);
    const box = (await phone.locator('#board svg').boundingBox())!;
    expect(box.width).toBeGreaterThan(340);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await clickPoint(phone, 'i10');
    await phone.waitForFunction(() => document.querySelectorAll('#board circle.stone').length === 4);
    await phone.click('#analyse');
    await phone.waitForFunction(() => Number(document.querySelector('#a-depth')!.textContent) > 0);
    await phone.screenshot({ path: join(ARTEFACTS, 'phone.png'), fullPage: true });
    // closing the page ends its search
    const active = async () => ((await (await fetch(new URL('/api/info', s.url))).json()) as { active: number }).active;
    expect(await active()).toBe(1);
    await phone.close();
    const t0 = performance.now();
    while ((await active()) > 0 && performance.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(await active()).toBe(0);
  });
});
