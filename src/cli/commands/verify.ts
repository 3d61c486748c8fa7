/**
 * `gomoku verify FILE [--json] [--max-positions N] [--time MS] [--ignore-zones]`: check a
 * `gomoku-proof/1`, `/2` or `/3` certificate with the independent checker (src/proof/verify.ts).
 * A version-2 or -3 report adds its pass counts; `--ignore-zones` walks every reply at every pass
 * entry (the plain full-width walk, for a second opinion on a zone).
 *
 * Exit status: 0 verified, 1 failed (the first failing line from the root is printed),
 * 2 bad input or usage (one `gomoku: …` line on stderr, naming the certificate line),
 * 3 unknown (a budget ran out before the certificate was decided).
 */
import { readFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { formatCertificateError, parseCertificate } from '../../proof/certificate.js';
import { formatReport, verifyCertificate, type VerifyOptions } from '../../proof/verify.js';
import { withNumberOptions } from '../common.js';

export interface VerifyRun {
  code: 0 | 1 | 2 | 3;
  stdout: string;
  stderr: string;
}

export interface VerifyCliOptions {
  json?: boolean;
  maxPositions?: number;
  timeMs?: number;
  ignoreZones?: boolean;
}

/** The option's value as a positive integer, or an error naming the bad token. */
function positiveInt(v: unknown, flag: string): number | string | undefined {
  if (v === undefined) return undefined;
  const t = String(v).trim();
  if (!/^\d+$/.test(t) || Number(t) <= 0 || !Number.isSafeInteger(Number(t))) return `${flag} must be a positive integer, got '${t}'`;
  return Number(t);
}

/** Everything the command does except reading the file and touching the process. */
export function runVerify(text: string, file: string, opts: VerifyCliOptions): VerifyRun {
  const parsed = parseCertificate(text);
  if (!parsed.ok) return { code: 2, stdout: '', stderr: `gomoku: ${file}: ${formatCertificateError(parsed.error)}\n` };
  const vo: VerifyOptions = {};
  if (opts.maxPositions !== undefined) vo.maxPositions = opts.maxPositions;
  if (opts.timeMs !== undefined) vo.maxMs = opts.timeMs;
  if (opts.ignoreZones) vo.ignoreZones = true;
  const report = verifyCertificate(parsed.value, vo);
  const code = report.result === 'verified' ? 0 : report.result === 'failed' ? 1 : 3;
  const stdout = opts.json ? JSON.stringify(report) + '\n' : formatReport(report) + '\n';
  return { code, stdout, stderr: '' };
}

export const command: CommandModule = {
  command: 'verify <file>',
  describe: 'check a gomoku-proof/1, /2 or /3 certificate with the independent checker',
  builder: (y) =>
    withNumberOptions(y, {
      'max-positions': { kind: 'positive-int', describe: 'give up (exit 3, unknown) after N positions' },
      time: { kind: 'positive-int', describe: 'give up (exit 3, unknown) after MS milliseconds' },
    })
      .positional('file', { type: 'string', describe: 'certificate file (JSON Lines)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as one JSON object' })
      .option('ignore-zones', { type: 'boolean', default: false, describe: 'walk every reply at pass entries, zones or not (slower; a second opinion)' })
      .epilog('Exit status: 0 verified, 1 failed, 2 bad input, 3 unknown (budget exhausted).'),
  handler: (argv) => {
    const a = argv as Record<string, unknown>;
    const bad = (msg: string) => {
      process.stderr.write(`gomoku: ${msg}\n`);
      process.exitCode = 2;
    };
    const file = String(a.file ?? '');
    const maxPositions = positiveInt(a.maxPositions, '--max-positions');
    if (typeof maxPositions === 'string') return bad(maxPositions);
    const timeMs = positiveInt(a.time, '--time');
    if (typeof timeMs === 'string') return bad(timeMs);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return bad(`cannot read '${file}'${code ? ` (${code})` : ''}`);
    }
    const opts: VerifyCliOptions = { json: a.json === true, ignoreZones: a.ignoreZones === true };
    if (maxPositions !== undefined) opts.maxPositions = maxPositions;
    if (timeMs !== undefined) opts.timeMs = timeMs;
    const r = runVerify(text, file, opts);
    if (r.stdout) process.stdout.write(r.stdout);
    if (r.stderr) process.stderr.write(r.stderr);
    process.exitCode = r.code;
  },
};
