/**
 * Match statistics, always from the point of view of engine A (the first `--engine`).
 *
 * Score: (wins + draws / 2) / games. Elo difference: the logistic model,
 * elo = -400 log10(1 / score - 1).
 *
 * 95% intervals, two ways:
 *  - trinomial (per game): each game is an independent draw from {1, 1/2, 0}; the
 *    standard error of the mean score is sqrt(var / N) with var the sample variance;
 *  - pentanomial (per pair): the two games of one opening (colours swapped) form a pair
 *    with a score in {0, 1/4, 1/2, 3/4, 1}; the pairs are the independent samples. This is
 *    the right model for colour-swapped openings (the games of a pair are correlated);
 *    only complete pairs count.
 * The interval maps score ± 1.96 SE through the Elo formula, so it is not symmetric; `pm`
 * is half its width. The score is the plain mean; the variance behind SE is taken with
 * half a pseudo-result in every category (the SPRT prior below), so a sample of identical
 * results still gets an interval of honest width instead of ± 0.
 *
 * SPRT: the generalised SPRT with a normal approximation of the score (as in fishtest and
 * fastchess), on the pentanomial pair scores when at least one complete pair exists and
 * the trinomial game scores otherwise:
 *   LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v),
 * with m, v the sample mean and variance of the unit scores, s0, s1 the expected scores of
 * elo0, elo1 (logistic). The counts get a prior of half a result in every category
 * (Jeffreys-style) before m and v are taken, so the LLR stays finite when every result
 * so far is the same (v = 0); its weight fades as games accumulate. Stop with H1 (`pass`: A is at least elo1 stronger) when
 * LLR >= ln((1 - beta) / alpha), with H0 (`fail`) when LLR <= ln(beta / (1 - alpha)).
 */
import type { GameRecord } from './game.js';

export interface Tally {
  wins: number;
  draws: number;
  losses: number;
}

export interface EloEstimate {
  elo: number;
  /** 95% interval bounds (may be ±Infinity when the score is 0 or 1). */
  lo: number;
  hi: number;
  /** Half the interval width. */
  pm: number;
  /** Number of samples (games or pairs). */
  n: number;
}

export interface SprtParams {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

export interface SprtState extends SprtParams {
  llr: number;
  lower: number;
  upper: number;
  /** `pass` accepted H1, `fail` accepted H0, `continue` not decided yet. */
  decision: 'pass' | 'fail' | 'continue';
  model: 'pentanomial' | 'trinomial';
}

export interface MatchStats {
  a: string;
  b: string;
  /** Finished games (aborted ones excluded). */
  games: number;
  aborted: number;
  total: Tally;
  /** A's results with black and with white. */
  asBlack: Tally;
  asWhite: Tally;
  score: number;
  elo: EloEstimate;
  /** Complete colour-swapped pairs and their counts by pair score 0, 0.5, 1, 1.5, 2. */
  pairs: number;
  penta: [number, number, number, number, number];
  eloPairs: EloEstimate | null;
  sprt: SprtState | null;
  /** Games lost by each engine through a fault (time-out, crash, garbage, illegal, start). */
  faults: Record<string, number>;
}

export function scoreToElo(s: number): number {
  if (s <= 0) return -Infinity;
  if (s >= 1) return Infinity;
  return -400 * Math.log10(1 / s - 1) + 0; // + 0: no -0 at an even score
}

export function eloToScore(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

function meanVar(values: number[], weights: number[]): { n: number; mean: number; variance: number } {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    n += weights[i]!;
    sum += weights[i]! * values[i]!;
  }
  if (n === 0) return { n: 0, mean: 0.5, variance: 0 };
  const mean = sum / n;
  let v = 0;
  for (let i = 0; i < values.length; i++) v += weights[i]! * (values[i]! - mean) ** 2;
  return { n, mean, variance: v / n };
}

function estimate(values: number[], weights: number[]): EloEstimate {
  const { n, mean } = meanVar(values, weights);
  // The spread comes from the counts plus the SPRT prior, so that identical results
  // (every pair 1-1 between two deterministic copies, or all wins) do not claim a zero-width interval.
  const { variance } = meanVar(
    values,
    weights.map((w) => w + SPRT_PRIOR),
  );
  const se = n > 0 ? Math.sqrt(variance / n) : 0;
  const lo = scoreToElo(mean - 1.96 * se);
  const hi = scoreToElo(mean + 1.96 * se);
  return { elo: scoreToElo(mean), lo, hi, pm: (hi - lo) / 2, n };
}

/** Elo with a 95% interval from per-game results (trinomial). */
export function eloTrinomial(t: Tally): EloEstimate {
  return estimate([1, 0.5, 0], [t.wins, t.draws, t.losses]);
}

/** Elo with a 95% interval from pair results: counts of pair scores 0, 0.5, 1, 1.5, 2. */
export function eloPentanomial(penta: readonly number[]): EloEstimate {
  return estimate([0, 0.25, 0.5, 0.75, 1], [...penta]);
}

/** Pseudo-count added to every result category before the SPRT (see the header). */
export const SPRT_PRIOR = 0.5;

export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** The GSPRT log-likelihood ratio of unit scores `values` weighted by counts (regularised). */
export function llr(values: number[], weights: number[], elo0: number, elo1: number): number {
  if (weights.every((w) => w === 0)) return 0;
  const {
    n: m,
    mean,
    variance,
  } = meanVar(
    values,
    weights.map((w) => w + SPRT_PRIOR),
  );
  const n = m - SPRT_PRIOR * weights.length;
  if (variance <= 0) return 0;
  const s0 = eloToScore(elo0);
  const s1 = eloToScore(elo1);
  return (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
}

export function sprtState(p: SprtParams, total: Tally, penta: readonly number[]): SprtState {
  const pairs = penta.reduce((a, b) => a + b, 0);
  const model = pairs > 0 ? 'pentanomial' : 'trinomial';
  const value =
    model === 'pentanomial'
      ? llr([0, 0.25, 0.5, 0.75, 1], [...penta], p.elo0, p.elo1)
      : llr([1, 0.5, 0], [total.wins, total.draws, total.losses], p.elo0, p.elo1);
  const { lower, upper } = sprtBounds(p.alpha, p.beta);
  const decision = value >= upper ? 'pass' : value <= lower ? 'fail' : 'continue';
  return { ...p, llr: value, lower, upper, decision, model };
}

const FAULTS = new Set(['timeout', 'crash', 'garbage', 'illegal', 'start-failed']);

/** A's points in one game (1, 0.5, 0) or null for an aborted game or one A did not play. */
export function pointsFor(g: GameRecord, a: string): number | null {
  if (g.result === '*') return null;
  if (g.result === '1/2-1/2') return 0.5;
  const blackWon = g.result === '1-0';
  if (g.black === a) return blackWon ? 1 : 0;
  if (g.white === a) return blackWon ? 0 : 1;
  return null;
}

/**
 * Statistics over finished games. Games 2k+1 and 2k+2 (1-based) are the two colours of
 * one opening; they form a pair when both finished.
 */
export function computeStats(records: readonly GameRecord[], a: string, b: string, sprt?: SprtParams): MatchStats {
  const empty = (): Tally => ({ wins: 0, draws: 0, losses: 0 });
  const total = empty();
  const asBlack = empty();
  const asWhite = empty();
  const faults: Record<string, number> = { [a]: 0, [b]: 0 };
  const byPair = new Map<number, number[]>();
  let aborted = 0;
  for (const g of records) {
    const p = pointsFor(g, a);
    if (p === null) {
      aborted++;
      continue;
    }
    const side = g.black === a ? asBlack : asWhite;
    for (const t of [total, side]) {
      if (p === 1) t.wins++;
      else if (p === 0) t.losses++;
      else t.draws++;
    }
    if (FAULTS.has(g.reason)) {
      const loser = g.result === '1-0' ? g.white : g.black;
      faults[loser] = (faults[loser] ?? 0) + 1;
    }
    const k = Math.floor((g.game - 1) / 2);
    const list = byPair.get(k) ?? [];
    list.push(p);
    byPair.set(k, list);
  }
  const penta: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let pairs = 0;
  for (const list of byPair.values()) {
    if (list.length !== 2) continue;
    pairs++;
    penta[Math.round((list[0]! + list[1]!) * 2)]!++;
  }
  const games = total.wins + total.draws + total.losses;
  return {
    a,
    b,
    games,
    aborted,
    total,
    asBlack,
    asWhite,
    score: games > 0 ? (total.wins + total.draws / 2) / games : 0.5,
    elo: eloTrinomial(total),
    pairs,
    penta,
    eloPairs: pairs > 0 ? eloPentanomial(penta) : null,
    sprt: sprt ? sprtState(sprt, total, penta) : null,
    faults,
  };
}

/** Two decimals, without a "-0.00". */
function fix2(x: number): string {
  return (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);
}

function fmtElo(e: number): string {
  if (e === Infinity) return '+inf';
  if (e === -Infinity) return '-inf';
  const r = Math.round(e);
  return r > 0 ? `+${r}` : String(r);
}

export function formatElo(e: EloEstimate): string {
  if (!Number.isFinite(e.pm)) return `${fmtElo(e.elo)} [${fmtElo(e.lo)}, ${fmtElo(e.hi)}]`;
  return `${fmtElo(e.elo)} ± ${Math.round(e.pm)}`;
}

/** The live progress line: games, W-D-L, score, Elo ± interval, LLR. */
export function progressLine(s: MatchStats, planned: number): string {
  const t = s.total;
  let line = `games ${s.games + s.aborted}/${planned}  ${s.a} vs ${s.b}  W-D-L ${t.wins}-${t.draws}-${t.losses}  score ${(s.score * 100).toFixed(1)}%  Elo ${formatElo(s.elo)}`;
  if (s.sprt) line += `  LLR ${fix2(s.sprt.llr)} [${fix2(s.sprt.lower)}, ${fix2(s.sprt.upper)}]`;
  return line;
}

/** The final multi-line summary. */
export function summaryText(s: MatchStats): string {
  const t = (x: Tally) => `+${x.wins} =${x.draws} -${x.losses}`;
  const lines = [
    `${s.a} vs ${s.b}: ${s.games} games${s.aborted ? ` (${s.aborted} aborted, not counted)` : ''}`,
    `  total      ${t(s.total)}  score ${(s.score * 100).toFixed(1)}%`,
    `  ${s.a} black ${t(s.asBlack)}`,
    `  ${s.a} white ${t(s.asWhite)}`,
    `  Elo (games, trinomial)    ${formatElo(s.elo)} (95%)`,
  ];
  if (s.eloPairs) lines.push(`  Elo (pairs, pentanomial)  ${formatElo(s.eloPairs)} (95%, ${s.pairs} pairs: ${s.penta.join(' ')})`);
  const f = Object.entries(s.faults).filter(([, n]) => n > 0);
  if (f.length) lines.push(`  lost by fault: ${f.map(([n, k]) => `${n} ${k}`).join(', ')}`);
  if (s.sprt) {
    const p = s.sprt;
    lines.push(
      `  SPRT elo0=${p.elo0} elo1=${p.elo1} alpha=${p.alpha} beta=${p.beta} (${p.model}): LLR ${fix2(p.llr)} [${fix2(p.lower)}, ${fix2(p.upper)}] -> ${p.decision === 'pass' ? 'H1 accepted (pass)' : p.decision === 'fail' ? 'H0 accepted (fail)' : 'undecided'}`,
    );
  }
  return lines.join('\n');
}
