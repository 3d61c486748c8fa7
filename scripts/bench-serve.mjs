#!/usr/bin/env node
/**
 * npm run bench:serve [-- --runs N --clicks N --analysis-ms MS --json]
 *
 * The targets of the web board (`gomoku serve`), measured with real headless Chromium
 * (/usr/bin/chromium or $GOMOKU_CHROMIUM, driven by playwright-core):
 *   cold start  from spawning `node dist/cli/main.js serve --port 0` to a page that has drawn
 *               its board, had the server's answer for the position and met the engine over
 *               its WebSocket (the browser is started before); N runs (default 5). Target < 1 s.
 *   click       from a click on the board (the event's time) to the end of the frame that shows
 *               the stone; N clicks (default 20). Target < 50 ms. The same measure on a blank
 *               page that only appends a circle is printed beside it (the machine's floor).
 *   analysis    updates of the page's analysis readout per second over MS (default 10000) of
 *               analysis of h8 i9 h9 i10 h10, counted in the page; the slowest one-second
 *               window too. Target >= 4 per second.
 *   phone       at 390 px wide: the board's width and whether the page scrolls sideways.
 * Median and 95th percentile where there are several measures.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpOnRequest } from './usage.mjs';
import { median, quantile } from './stats.mjs';

helpOnRequest(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'main.js');
if (!existsSync(cli) || !existsSync(join(root, 'dist', 'web', 'index.html'))) {
  console.error('bench-serve: dist/ (or dist/web) is missing; run `npm run build` first');
  process.exit(2);
}
const CHROMIUM = process.env.GOMOKU_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.error(`bench-serve: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  process.exit(2);
}
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 5);
const CLICKS = arg('clicks', 20);
const ANALYSIS_MS = arg('analysis-ms', 10_000);
const JSON_OUT = process.argv.includes('--json');

const { chromium } = await import('playwright-core');
const { geometry } = await import(join(root, 'dist', 'view', 'board-svg.js'));

function serve() {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [cli, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /gomoku serve: (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], proc, t0, addressMs: performance.now() - t0 });
    });
    proc.on('exit', (c) => reject(new Error(`gomoku serve exited with ${c}`)));
  });
}
const stop = (s) =>
  new Promise((r) => {
    s.proc.removeAllListeners('exit');
    s.proc.on('exit', r);
    s.proc.kill('SIGTERM');
  });

const profile = mkdtempSync(join(tmpdir(), 'gomoku-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
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
  viewport: { width: 1200, height: 900 },
});
const results = {};
try {
  // cold start
  const cold = [];
  const address = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await context.newPage();
    const s = await serve();
    await page.goto(s.url);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    cold.push(performance.now() - s.t0);
    address.push(s.addressMs);
    await page.close();
    await stop(s);
  }
  results.coldStart = { runs: RUNS, medianMs: Math.round(median(cold)), maxMs: Math.round(Math.max(...cold)), addressMedianMs: Math.round(median(address)) };

  const s = await serve();
  try {
    // clicks
    const page = await context.newPage();
    await page.goto(s.url);
    await page.waitForSelector('body[data-ready="1"]');
    const box = await page.locator('#board').boundingBox();
    const g = geometry(15);
    const k = box.width / g.width;
    const clicks = [];
    for (let i = 0; i < CLICKS; i++) {
      if (i % 40 === 0 && i > 0) {
        await page.click('#new');
        await page.waitForTimeout(200);
      }
      const q = [3, 11, 5, 9, 7, 13, 1][i % 7] + 15 * (1 + ((2 * Math.floor(i / 7)) % 13));
      await page.mouse.click(box.x + g.x(q % 15) * k, box.y + g.y(Math.floor(q / 15)) * k);
      await page.waitForFunction(() => document.body.dataset.clickMs !== undefined);
      clicks.push(
        Number(
          await page.evaluate(() => {
            const v = document.body.dataset.clickMs;
            delete document.body.dataset.clickMs;
            return v;
          }),
        ),
      );
      await page.waitForTimeout(150);
    }
    const blank = await context.newPage();
    await blank.setContent('<div id="b" style="width:600px;height:600px"><svg id="s" width="600" height="600"></svg></div>');
    await blank.evaluate(() => {
      window.log = [];
      document.getElementById('b').addEventListener('pointerdown', (e) => {
        document.getElementById('s').insertAdjacentHTML('beforeend', `<circle cx="${e.offsetX}" cy="${e.offsetY}" r="10"/>`);
        requestAnimationFrame(() => setTimeout(() => window.log.push(performance.now() - e.timeStamp), 0));
      });
    });
    for (let i = 0; i < CLICKS; i++) {
      await blank.mouse.click(50 + (i % 10) * 50, 50 + Math.floor(i / 10) * 50);
      await blank.waitForTimeout(150);
    }
    const floor = await blank.evaluate(() => window.log);
    await blank.close();
    results.click = {
      clicks: CLICKS,
      medianMs: +median(clicks).toFixed(1),
      p95Ms: +quantile(clicks, 0.95).toFixed(1),
      blankPageMedianMs: +median(floor).toFixed(1),
    };

    // analysis updates
    await page.click('#new');
    await page.goto(`${s.url}?p=h8+i9+h9+i10+h10`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.evaluate(() => {
      window.updates = [];
      new MutationObserver(() => window.updates.push(performance.now())).observe(document.querySelector('#readout'), {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.click('#analyse');
    await page.waitForTimeout(ANALYSIS_MS);
    const times = await page.evaluate(() => window.updates);
    await page.click('#analyse');
    const t0 = times[0];
    const secs = Math.floor((times[times.length - 1] - t0) / 1000);
    const perSecond = [];
    for (let w = 0; w < secs; w++) perSecond.push(times.filter((t) => t >= t0 + w * 1000 && t < t0 + (w + 1) * 1000).length);
    results.analysis = {
      ms: ANALYSIS_MS,
      perSecond: +(times.length / (ANALYSIS_MS / 1000)).toFixed(1),
      slowestSecond: Math.min(...perSecond),
      depth: Number(await page.textContent('#a-depth')),
    };
    await page.close();

    // phone width
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${s.url}?p=h8+i9+h9`);
    await phone.waitForSelector('body[data-ready="1"]');
    const pb = await phone.locator('#board').boundingBox();
    results.phone = { width: 390, boardPx: Math.round(pb.width), scrollsSideways: (await phone.evaluate(() => document.documentElement.scrollWidth)) > 390 };
    await phone.close();
  } finally {
    await stop(s);
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

if (JSON_OUT) console.log(JSON.stringify(results));
else {
  const r = results;
  console.log(
    `cold start to a ready page  median ${r.coldStart.medianMs} ms, slowest ${r.coldStart.maxMs} ms (${r.coldStart.runs} runs; the address line after ${r.coldStart.addressMedianMs} ms)   target < 1000 ms`,
  );
  console.log(
    `click to the frame showing the stone  median ${r.click.medianMs} ms, p95 ${r.click.p95Ms} ms (${r.click.clicks} clicks; a blank page: ${r.click.blankPageMedianMs} ms)   target < 50 ms`,
  );
  console.log(
    `analysis readout updates  ${r.analysis.perSecond}/s over ${r.analysis.ms / 1000} s, slowest second ${r.analysis.slowestSecond} (depth ${r.analysis.depth} reached)   target >= 4/s`,
  );
  console.log(`390 px wide  board ${r.phone.boardPx} px, ${r.phone.scrollsSideways ? 'scrolls sideways' : 'no sideways scrolling'}`);
}
