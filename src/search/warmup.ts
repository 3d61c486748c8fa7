/**
 * JIT warm-up. A fresh Node process runs the search in V8's interpreter and baseline tiers
 * until the optimising compiler has seen enough of it: measured (docs/benchmarks.md, "The
 * first moves of a process"), its first move at 200 ms searches a tenth of the nodes of a warm
 * one, and at 1 s its first moves search about a fifth fewer. A bot started anew for each game
 * would play its opening that way, so before the first move is asked for, `WarmUp` plays a
 * self-play game on a scratch engine of its own (small tables, its own seed), one move of
 * 20 ms per `step()`: every stage of the engine runs (alpha-beta, VCF, VCT, the opponent's
 * threats) on the paths a time limit takes (node-limited steps left the first 1-s moves no
 * faster), and nothing of the real engine is touched, so the bot's moves for a given seed and
 * node limit stay the same.
 */
import { Engine, MIN_TABLE_BITS } from './engine.js';

/** Time of one warm-up move: a time limit, as in a real game (the code paths of a node limit differ). */
const STEP_MS = 20;
/** The openings the scratch games start from (cells of a 15x15 board: row * 15 + column). */
const OPENINGS: readonly (readonly number[])[] = [
  [112, 96, 98],
  [112, 97, 83],
  [112, 113, 127],
  [112, 82, 114],
];
/** A scratch game ends after this many stones (a new one starts). */
const MAX_STONES = 40;

export class WarmUp {
  private engine?: Engine;
  private game = 0;
  private readonly until: number;
  private stopped = false;
  /** The scratch game is over (or not begun): the next step starts another. */
  private over = true;
  /** Warm-up moves played. */
  moves = 0;

  /** Warm up for at most `budgetMs` of `now()` from now (0: not at all). */
  constructor(
    budgetMs: number,
    private readonly now: () => number,
  ) {
    this.until = now() + Math.max(0, budgetMs);
    if (budgetMs <= 0) this.stopped = true;
  }

  get done(): boolean {
    return this.stopped || this.now() >= this.until;
  }

  /** End the warm-up now (its scratch engine is let go). */
  stop(): void {
    this.stopped = true;
    this.engine = undefined;
  }

  /** One warm-up move; false once the warm-up is over. */
  step(): boolean {
    if (this.done) {
      this.stop();
      return false;
    }
    let e = this.engine;
    if (e === undefined) {
      e = new Engine({ now: this.now, seed: 'warm-up' });
      e.setTableBits(MIN_TABLE_BITS);
      this.engine = e;
    }
    if (this.over) {
      e.newGame(15);
      for (const q of OPENINGS[this.game++ % OPENINGS.length]!) e.play(q);
      this.over = false;
    }
    const r = e.go({ turnMs: STEP_MS });
    this.moves++;
    if (r.move >= 0 && e.isLegal(r.move)) e.play(r.move);
    this.over = r.move < 0 || e.board.ply >= MAX_STONES || e.board.lastMoveWon() !== 0;
    return !this.done;
  }
}
