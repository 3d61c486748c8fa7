/**
 * `book verify` as plain data: assemble the certificate of every decided (win/loss) position
 * in the book and check it with the independent checker (proof/verify.ts).
 */
import { boardFromStones } from '../core/position.js';
import { makeStoneSet } from '../core/notation.js';
import { parsePositionKey } from '../core/symmetry.js';
import { parseCertificate, formatCertificateError } from '../proof/certificate.js';
import { verifyCertificate } from '../proof/verify.js';
import { assembleProof } from './proof.js';
import type { BookStore } from './store.js';

export interface BookVerifyFailure {
  position: string;
  toMove: 'black' | 'white';
  verdict: string;
  reason: string;
}

export interface BookVerifyReport {
  decided: number;
  verified: number;
  failed: number;
  unknown: number;
  failures: BookVerifyFailure[];
  ms: number;
}

export function verifyBook(store: BookStore, opts: { maxMsEach?: number; onProgress?: (done: number, total: number) => void; now?: () => number } = {}): BookVerifyReport {
  const now = opts.now ?? (() => Date.now());
  const t0 = now();
  const decided = [...store.positions()].filter((r) => r.verdict === 'win' || r.verdict === 'loss');
  const rep: BookVerifyReport = { decided: decided.length, verified: 0, failed: 0, unknown: 0, failures: [], ms: 0 };
  let done = 0;
  for (const row of decided) {
    const k = parsePositionKey(row.key)!;
    const b = boardFromStones(row.size, row.rule, k.black, k.white, k.toMove);
    const fail = (reason: string, unknown = false) => {
      if (unknown) rep.unknown++;
      else rep.failed++;
      rep.failures.push({ position: makeStoneSet(k.black, k.white, row.size), toMove: k.toMove === 1 ? 'black' : 'white', verdict: row.verdict, reason });
    };
    const proof = assembleProof(store, b);
    if (!proof.ok) fail(proof.error);
    else {
      const cert = parseCertificate(proof.value.certificate);
      if (!cert.ok) fail(`certificate does not parse: ${formatCertificateError(cert.error)}`);
      else {
        const r = verifyCertificate(cert.value, { maxMs: opts.maxMsEach ?? 60_000 });
        if (r.result === 'verified') rep.verified++;
        else fail(`${r.reason ?? r.result}${r.line.length ? `; line from root: ${r.line.join(' ')}` : ''}`, r.result === 'unknown');
      }
    }
    opts.onProgress?.(++done, decided.length);
  }
  rep.ms = now() - t0;
  return rep;
}
