import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import yargs from 'yargs';
import { command, runVerify } from '../../../src/cli/commands/verify.js';
import { BLACK, WHITE } from '../../../src/core/types.js';
import { makeCertificate } from '../../../src/proof/certificate.js';
import { certificateText, FILLERS, PLAIN_VCF, pts, VCT } from '../../proof/fixtures.js';

const GOOD = certificateText(VCT);
const WRONG = certificateText({ ...VCT, entries: VCT.entries!.filter((e) => e.line !== 'l5 m5') });

describe('runVerify', () => {
  test('verified: exit 0 and a VERIFIED line', () => {
    const r = runVerify(GOOD, 'vct.jsonl', {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^VERIFIED \d+ positions, 3 entries used/);
    expect(r.stderr).toBe('');
  });

  test('failed: exit 1 and the first failing line from the root', () => {
    const r = runVerify(WRONG, 'vct.jsonl', {});
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('FAILED no entry and no plain VCF for black; line from root: l5 m5\n');
  });

  test('--json gives one object with the counts', () => {
    const r = runVerify(WRONG, 'vct.jsonl', { json: true });
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ result: 'failed', line: ['l5', 'm5'], entries: 2, entriesUsed: 2, entriesUnused: 0 });
    expect(typeof o.positions).toBe('number');
    expect(typeof o.vcfCalls).toBe('number');
  });

  test('a budget that runs out: exit 3, unknown', () => {
    const r = runVerify(GOOD, 'vct.jsonl', { maxPositions: 10 });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^UNKNOWN position budget \(10\) exhausted/);
  });

  test('a malformed line: exit 2, one line naming the line number', () => {
    const r = runVerify(`${GOOD}{"stones":"B:h8","move":"zz"}\n`, 'bad.jsonl', {});
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("gomoku: bad.jsonl: line 5: move: bad point 'zz'\n");
  });
});

describe('versions 2 and 3', () => {
  // White to move against PLAIN_VCF, a pass at the root whose zone is the VCF's support.
  const black = pts(PLAIN_VCF.black);
  const white = pts(`d8 d11 ${FILLERS}`);
  const cert = (zone: string, version: 2 | 3 = 2) =>
    makeCertificate({
      size: 15,
      rule: 'freestyle',
      root: { kind: 'stones', black, white, toMove: WHITE },
      winner: BLACK,
      entries: [],
      passes: [{ black, white, zone: pts(zone) }],
      version,
    });

  test('the VERIFIED line adds the pass counts; --ignore-zones walks every reply', () => {
    const r = runVerify(cert('h11 i11 h8 i8 h12'), 'pass.jsonl', {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^VERIFIED \d+ positions, 0 entries used \(.*\); 1 pass positions, 1 zone checks, 204 replies covered by zones, 0 ignore-set look-ups\n$/,
    );
    const full = runVerify(cert('h11 i11 h8 i8 h12'), 'pass.jsonl', { ignoreZones: true });
    expect(full.code).toBe(0);
    expect(full.stdout).toMatch(/; 1 pass positions, 0 zone checks, 0 replies covered by zones/);
    const o = JSON.parse(runVerify(cert('h11 i11 h8 i8 h12'), 'pass.jsonl', { json: true }).stdout);
    expect(o).toMatchObject({ result: 'verified', passEntries: 1, passesUsed: 1, zoneChecks: 1, zoneCovered: 204, ignoreLookups: 0, largestSupport: 5 });
  });

  test('a zone that misses its support: exit 1, the missing cell named', () => {
    const r = runVerify(cert('h11 i11 h8 h12'), 'pass.jsonl', {});
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('FAILED the zone of the pass entry on line 2 misses 1 supporting cell: i8; line from root: (root)\n');
  });

  test('a /3 report adds the replies kept out of the ignore set by their own entries', () => {
    const r = runVerify(cert('h11 i11 h8 i8 h12', 3), 'pass3.jsonl', {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/; 1 pass positions, 1 zone checks, 204 replies covered by zones, 0 ignore-set look-ups, 0 replies with their own entries\n$/);
    expect(JSON.parse(runVerify(cert('h11 i11 h8 i8 h12', 3), 'pass3.jsonl', { json: true }).stdout)).toMatchObject({ result: 'verified', ownReplies: 0 });
    expect(JSON.parse(runVerify(cert('h11 i11 h8 i8 h12'), 'pass.jsonl', { json: true }).stdout).ownReplies).toBeUndefined();
  });

  test('a /1 report has no version-2 fields', () => {
    const o = JSON.parse(runVerify(GOOD, 'vct.jsonl', { json: true }).stdout);
    expect(o.passEntries).toBeUndefined();
    expect(runVerify(GOOD, 'vct.jsonl', {}).stdout).not.toMatch(/pass/);
  });
});

describe('the yargs command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-verify-'));
  const run = async (args: string[]) => {
    let out = '';
    let errOut = '';
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((errOut += String(s)), true));
    let thrown: number | undefined;
    try {
      // as main.ts does: an option's check throws, and the error is one line with exit 2
      await yargs(args)
        .command(command)
        .strict()
        .exitProcess(false)
        .fail((msg, err) => {
          throw err ?? new Error(msg);
        })
        .parseAsync();
    } catch (err) {
      errOut += `gomoku: ${(err as Error).message}\n`;
      thrown = 2;
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
    const code = thrown ?? process.exitCode;
    process.exitCode = undefined;
    return { code, out, errOut };
  };
  afterEach(() => {
    process.exitCode = undefined;
  });

  test('verifies a file', async () => {
    const f = join(dir, 'good.jsonl');
    writeFileSync(f, GOOD);
    const r = await run(['verify', f]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^VERIFIED/);
    const r2 = await run(['verify', f, '--ignore-zones']);
    expect(r2.code).toBe(0);
    expect(r2.out).toBe(r.out.replace(/\d+ ms\)/, r2.out.match(/\d+ ms\)/)![0]));
  });

  test('fails a wrong file with exit 1', async () => {
    const f = join(dir, 'wrong.jsonl');
    writeFileSync(f, WRONG);
    const r = await run(['verify', f, '--time', '60000']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/line from root: l5 m5/);
  });

  test('a missing file or a bad option: one line, exit 2', async () => {
    const r = await run(['verify', join(dir, 'nope.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.errOut).toMatch(/^gomoku: cannot read '.*nope\.jsonl' \(ENOENT\)\n$/);
    const f = join(dir, 'good2.jsonl');
    writeFileSync(f, GOOD);
    const r2 = await run(['verify', f, '--max-positions', '-3']);
    expect(r2.code).toBe(2);
    expect(r2.errOut).toBe("gomoku: --max-positions must be a positive integer, got '-3'\n");
    const r3 = await run(['verify', f, '--time', 'abc']);
    expect(r3.code).toBe(2);
    expect(r3.errOut).toBe("gomoku: --time must be a positive integer, got 'abc'\n");
    const r4 = await run(['verify', f, '--max-positions', '20']);
    expect(r4.code).toBe(3);
    expect(r4.out).toMatch(/^UNKNOWN position budget \(20\) exhausted/);
  });
});
