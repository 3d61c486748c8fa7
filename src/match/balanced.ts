/**
 * Balanced random openings for self-play matches: the random openings of randomOpenings
 * whose position a short node-limited search of this engine scores near equal. Most random
 * 3-stone openings are won by one colour at match strength, so both games of the pair go to
 * that colour and say nothing about which engine is stronger (in a 1,000-game SPRT, 370 of
 * 500 pairs split 1-1); near-equal ones make more of the pairs count.
 */
import { BLACK, WHITE, type Result, type Rule, err, ok } from '../core/types.js';
import { Engine } from '../search/engine.js';
import { type Opening, randomOpeningStream } from './opening-files.js';

export interface BalanceOptions {
  /** Keep an opening when the search's score for the side to move is within +-maxScore. */
  maxScore: number;
  /** Node limit of that search (the same nodes and seed give the same openings on any machine). */
  nodes: number;
  /** Give up after this many openings drawn (default 50 per opening asked for). */
  maxDrawn?: number;
  /** Called after each opening drawn. */
  onDraw?: (drawn: number, kept: number) => void;
}

export interface BalancedOpenings {
  openings: Opening[];
  /** Openings drawn to find them. */
  drawn: number;
}

export function balancedOpenings(count: number, size: number, rule: Rule, seed: string, stones: number, opts: BalanceOptions): Result<BalancedOpenings> {
  const stream = randomOpeningStream(size, seed, stones);
  if (!stream.ok) return stream;
  const maxDrawn = opts.maxDrawn ?? count * 50;
  // No book, and the clock never stops a search: the node limit alone decides the score.
  const engine = new Engine({ size, rule, seed, now: () => 0 });
  const openings: Opening[] = [];
  let drawn = 0;
  for (const o of stream.value) {
    if (drawn >= maxDrawn) break;
    drawn++;
    engine.newGame(size, rule);
    engine.setPosition(
      o.moves.map((index, i) => ({ index, color: i % 2 === 0 ? BLACK : WHITE })),
      o.moves.length % 2 === 0 ? BLACK : WHITE,
    );
    const r = engine.go({ nodes: opts.nodes });
    if (Math.abs(r.score) <= opts.maxScore) openings.push(o);
    opts.onDraw?.(drawn, openings.length);
    if (openings.length === count) return ok({ openings, drawn });
  }
  return err(
    `only ${openings.length} of ${drawn} random openings of ${stones} stones scored within +-${opts.maxScore} at ${opts.nodes} nodes (${count} asked for)`,
  );
}
