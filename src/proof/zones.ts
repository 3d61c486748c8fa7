/**
 * Zones for writers of `gomoku-proof/2` certificates (docs/formats.md 3.2).
 *
 * A zone is valid when it holds the support the checker computes for the pass strategy, in
 * every position where the pass entry is used. The simplest sound way for a writer to get
 * one is to ask the checker itself: `fitZones` verifies the strategy while every zone grows
 * to what the checker needs, and repeats until no zone grows (a reply covered before its
 * zone grew may need a walk of its own, which may use other pass entries in new positions).
 * The last round is then an ordinary verification, so the zones returned are accepted by
 * `gomoku verify` as long as nothing else in the strategy changes.
 *
 * Layering (scripts/check-deps.mjs): proof sits above search, so the solver (src/search)
 * cannot call this; the book builder (src/book), the job workers and the CLI can.
 */
import { certificateOf, type PassEntry, type Strategy } from './certificate.js';
import { verifyLearningZones, type VerifyOptions, type VerifyReport } from './verify.js';

export interface FitZonesOptions extends VerifyOptions {
  /**
   * A pass entry whose zone would hold more cells than this gets none (every reply walked,
   * still sound; the writer may rather list those replies' own entries). Default: no limit.
   */
  maxZone?: number;
  /** Give up after this many verification rounds (default 20; each zone only grows, so it ends). */
  maxRounds?: number;
}

export interface FitZonesResult {
  /** The strategy with the fitted zones (pass entries left without a zone have none). */
  strategy: Strategy;
  /** The report of the last round: `verified` means the certificate verifies as returned. */
  report: VerifyReport;
  rounds: number;
  /** Pass entries whose zone passed `maxZone` and was dropped. */
  dropped: number;
}

/**
 * Fit a zone to every pass entry of `strategy`: entries with a zone keep at least its cells
 * (a writer may pass an estimate, it only grows), entries without one start empty. With
 * `keepWithoutZone`, pass entries that have no zone stay without one (every reply walked).
 */
export function fitZones(strategy: Strategy, opts: FitZonesOptions & { keepWithoutZone?: boolean } = {}): FitZonesResult {
  const passes = strategy.passes ?? [];
  const cert = certificateOf(strategy);
  cert.passes.forEach((p, i) => {
    if (p.zone === null && !(opts.keepWithoutZone && passes[i]!.zone === undefined)) p.zone = [];
  });
  const maxZone = opts.maxZone ?? Infinity;
  const maxRounds = opts.maxRounds ?? 20;
  let dropped = 0;
  let rounds = 0;
  let report: VerifyReport;
  let converged = false;
  for (;;) {
    rounds++;
    const r = verifyLearningZones(cert, opts);
    report = r.report;
    let changed = r.grown;
    r.zones.forEach((z, i) => {
      const p = cert.passes[i]!;
      if (z !== null && z.length > maxZone) {
        p.zone = null;
        dropped++;
        changed = true;
      } else {
        p.zone = z;
      }
    });
    converged = !changed;
    if (report.result !== 'verified' || converged || rounds >= maxRounds) break;
  }
  if (report.result === 'verified' && !converged) {
    // still growing: the last round is no proof of these zones
    report = { ...report, result: 'unknown', reason: `zones still growing after ${maxRounds} rounds` };
  }
  const fitted: PassEntry[] = passes.map((p, i) => {
    const z = cert.passes[i]!.zone;
    return z === null ? { black: p.black, white: p.white } : { black: p.black, white: p.white, zone: z };
  });
  return { strategy: { ...strategy, passes: fitted }, report, rounds, dropped };
}
