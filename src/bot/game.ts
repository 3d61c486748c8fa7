/**
 * `BotGame`, the game a bot hosts: the one place that turns "our stones, their stones, we
 * are to move" into an `Engine.go` call and guarantees that the move it returns is legal (it
 * asserts `engine.isLegal` and falls back to a legal cell, logging why). The protocol
 * adapters (src/protocols/) and the web board's play mode (src/workers/serve-worker.ts) host
 * their games through it.
 */
import { EMPTY, type Color, type Rule } from '../core/types.js';
import { Engine } from '../search/engine.js';
import type { BookProbe, Limits, MoveResult } from '../search/types.js';

export interface Stone {
  index: number;
  color: Color;
}

export interface Think {
  move: number;
  result?: MoveResult;
  log: string[];
}

/**
 * The game as an adapter sees it: stones with colours, in arrival order, and an engine.
 * The engine's position is rebuilt from `stones` before every search, so colour swaps
 * (CodeCup `Zz`, WPI first-stone swap, Swap2) never have to be replayed move by move.
 */
export class BotGame {
  engine: Engine;
  size: number;
  rule: Rule;
  stones: Stone[] = [];
  private cells: Uint8Array;

  constructor(size: number, rule: Rule, opts: { seed: string; book?: BookProbe | undefined }) {
    this.size = size;
    this.rule = rule;
    const eo: ConstructorParameters<typeof Engine>[0] = { size, rule, seed: opts.seed, now: () => performance.now() };
    if (opts.book) eo.book = opts.book;
    this.engine = new Engine(eo);
    this.cells = new Uint8Array(size * size);
  }

  reset(size = this.size, rule = this.rule): void {
    this.size = size;
    this.rule = rule;
    this.stones = [];
    this.cells = new Uint8Array(size * size);
    this.engine.newGame(size, rule);
  }

  onBoard(col: number, row: number): boolean {
    return Number.isInteger(col) && Number.isInteger(row) && col >= 0 && row >= 0 && col < this.size && row < this.size;
  }

  index(col: number, row: number): number {
    return row * this.size + col;
  }

  colRow(index: number): [number, number] {
    const col = index % this.size;
    return [col, (index - col) / this.size];
  }

  colorAt(index: number): number {
    return this.cells[index] ?? EMPTY;
  }

  isEmpty(index: number): boolean {
    return index >= 0 && index < this.cells.length && this.cells[index] === EMPTY;
  }

  /** Place a stone; an error string if the cell is off the board or taken. */
  place(index: number, color: Color): string | undefined {
    if (!(index >= 0 && index < this.cells.length)) return 'off the board';
    if (this.cells[index] !== EMPTY) return 'occupied';
    this.cells[index] = color;
    this.stones.push({ index, color });
    return undefined;
  }

  remove(index: number): boolean {
    const i = this.stones.findIndex((s) => s.index === index);
    if (i < 0) return false;
    this.stones.splice(i, 1);
    this.cells[index] = EMPTY;
    return true;
  }

  /** Give every stone the other colour (swap rules). */
  swapColors(): void {
    for (const s of this.stones) {
      s.color = (3 - s.color) as Color;
      this.cells[s.index] = s.color;
    }
  }

  setStones(stones: readonly Stone[]): void {
    this.stones = [];
    this.cells = new Uint8Array(this.size * this.size);
    for (const s of stones) this.place(s.index, s.color);
  }

  count(color: Color): number {
    let n = 0;
    for (const s of this.stones) if (s.color === color) n++;
    return n;
  }

  full(): boolean {
    return this.stones.length >= this.size * this.size;
  }

  /** Does `color` have five (or more; exactly five under `standard`) on the board? */
  hasFive(color: Color): boolean {
    const n = this.size;
    for (const s of this.stones) {
      if (s.color !== color) continue;
      const [x, y] = this.colRow(s.index);
      for (const [dx, dy] of [
        [1, 0],
        [0, 1],
        [1, 1],
        [1, -1],
      ] as const) {
        const px = x - dx;
        const py = y - dy;
        if (px >= 0 && py >= 0 && px < n && py < n && this.cells[py * n + px] === color) continue; // not the start of the run
        let len = 0;
        let cx = x;
        let cy = y;
        while (cx >= 0 && cy >= 0 && cx < n && cy < n && this.cells[cy * n + cx] === color) {
          len++;
          cx += dx;
          cy += dy;
        }
        if (this.rule === 'standard' ? len === 5 : len >= 5) return true;
      }
    }
    return false;
  }

  /** Load the position into the engine with `toMove` to play. */
  sync(toMove: Color): void {
    this.engine.setPosition(this.stones, toMove);
  }

  /**
   * Search for `toMove` and return a move that is certainly legal (or -1 on a full board).
   * If the engine proposes an illegal cell, a legal one is chosen instead and the log says so.
   */
  think(toMove: Color, limits: Limits): Think {
    const log: string[] = [];
    if (this.full()) return { move: -1, log: ['board is full, no move'] };
    this.sync(toMove);
    let result: MoveResult | undefined;
    try {
      result = this.engine.go(limits);
    } catch (e) {
      log.push(`engine error: ${e instanceof Error ? e.message : String(e)}`);
    }
    let move = result?.move ?? -1;
    if (!(this.engine.isLegal(move) && this.isEmpty(move))) {
      const fb = this.fallbackMove();
      log.push(`engine proposed illegal move ${move}; playing ${fb} instead`);
      move = fb;
    }
    const out: Think = { move, log };
    if (result) out.result = result;
    return out;
  }

  /** Score of the position for `toMove` (engine's view, side to move); 0 if the engine fails. */
  evaluate(toMove: Color, limits: Limits): number {
    this.sync(toMove);
    try {
      return this.engine.go(limits).score;
    } catch {
      return 0;
    }
  }

  /** The empty cell nearest the centre among those next to a stone (or the centre). */
  fallbackMove(): number {
    const n = this.size;
    const c = (n - 1) / 2;
    let best = -1;
    let bestD = Infinity;
    for (let q = 0; q < n * n; q++) {
      if (this.cells[q] !== EMPTY) continue;
      const [x, y] = this.colRow(q);
      const d = Math.abs(x - c) + Math.abs(y - c);
      if (d < bestD) {
        bestD = d;
        best = q;
      }
    }
    return best;
  }
}
