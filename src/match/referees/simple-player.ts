/**
 * The referees' simple opponent and shared bookkeeping: a seeded greedy player (win now,
 * else block a five, else a random empty cell next to a stone) and `RefGame`, the referee's
 * own board with five detection. Runs in-process; plain data in and out.
 */
import seedrandom from 'seedrandom';
import { BLACK, EMPTY, WHITE, type Color } from '../../core/types.js';

export type Side = 'bot' | 'opponent';

export interface GameReport {
  protocol: string;
  winner: Side | 'draw' | 'none';
  reason: 'five' | 'full' | 'illegal' | 'timeout' | 'crash' | 'protocol';
  /** Which side broke the rules (illegal / timeout / crash / protocol). */
  fault?: Side;
  botColor?: 'black' | 'white';
  /** Stones on the board at the end. */
  stones: number;
  /** The bot's slowest answer after its first (ms). */
  maxBotMs: number;
  /** The bot's first answer (ms), which includes the process start-up. */
  firstBotMs: number;
  detail: string;
  transcript: string[];
  botStderr: string;
}

/** Answer times: the first (with process start-up) apart from the rest. */
export class AnswerTimes {
  first = 0;
  max = 0;
  private n = 0;

  add(ms: number): void {
    if (this.n++ === 0) this.first = ms;
    else this.max = Math.max(this.max, ms);
  }
}

export class RefGame {
  readonly cells: Uint8Array;
  readonly moves: { index: number; color: Color }[] = [];

  constructor(readonly size: number) {
    this.cells = new Uint8Array(size * size);
  }

  onBoard(x: number, y: number): boolean {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < this.size && y < this.size;
  }

  isEmpty(q: number): boolean {
    return this.cells[q] === EMPTY;
  }

  place(q: number, c: Color): void {
    this.cells[q] = c;
    this.moves.push({ index: q, color: c });
  }

  swapColours(): void {
    for (const m of this.moves) {
      m.color = (3 - m.color) as Color;
      this.cells[m.index] = m.color;
    }
  }

  full(): boolean {
    for (let q = 0; q < this.cells.length; q++) if (this.cells[q] === EMPTY) return false;
    return true;
  }

  /** Run length of colour c through q (q counted as c) along the longest line. */
  runThrough(q: number, c: Color): number {
    const n = this.size;
    const x0 = q % n;
    const y0 = (q - x0) / n;
    let best = 0;
    for (const [dx, dy] of [
      [1, 0],
      [0, 1],
      [1, 1],
      [1, -1],
    ] as const) {
      let len = 1;
      for (const s of [1, -1]) {
        let x = x0 + s * dx;
        let y = y0 + s * dy;
        while (x >= 0 && y >= 0 && x < n && y < n && this.cells[y * n + x] === c) {
          len++;
          x += s * dx;
          y += s * dy;
        }
      }
      best = Math.max(best, len);
    }
    return best;
  }

  /** Does the stone at q make five or more (freestyle)? */
  fiveAt(q: number): boolean {
    const c = this.cells[q]!;
    return c !== EMPTY && this.runThrough(q, c as Color) >= 5;
  }

  /** Stones as a KoTH/Gomocup-independent list, sorted by index. */
  stones(): { index: number; color: Color }[] {
    return [...this.moves].sort((a, b) => a.index - b.index);
  }
}

export class SimplePlayer {
  private readonly rng: () => number;

  constructor(seed: string) {
    this.rng = seedrandom(`${seed}/simple`);
  }

  random(): number {
    return this.rng();
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rng() * items.length) % items.length]!;
  }

  /** Win if possible, else block the opponent's five, else a random cell next to a stone. */
  move(g: RefGame, me: Color): number {
    const opp = (3 - me) as Color;
    const empty: number[] = [];
    for (let q = 0; q < g.cells.length; q++) if (g.cells[q] === EMPTY) empty.push(q);
    if (empty.length === 0) return -1;
    for (const q of empty) if (g.runThrough(q, me) >= 5) return q;
    for (const q of empty) if (g.runThrough(q, opp) >= 5) return q;
    const near = empty.filter((q) => this.hasNeighbour(g, q));
    if (near.length === 0) return this.centreish(g);
    // Prefer cells that extend our own lines (a little greed), ties at random.
    let best = -1;
    let bestScore = -1;
    for (const q of near) {
      const s = g.runThrough(q, me) * 2 + g.runThrough(q, opp) + this.rng();
      if (s > bestScore) {
        bestScore = s;
        best = q;
      }
    }
    return best;
  }

  /** A random empty cell within 2 of the centre. */
  centreish(g: RefGame, radius = 2, exclude: ReadonlySet<number> = new Set()): number {
    const c = Math.floor((g.size - 1) / 2);
    const cells: number[] = [];
    for (let y = c - radius; y <= c + radius; y++) {
      for (let x = c - radius; x <= c + radius; x++) {
        const q = y * g.size + x;
        if (g.onBoard(x, y) && g.isEmpty(q) && !exclude.has(q)) cells.push(q);
      }
    }
    return this.pick(cells);
  }

  /** n distinct opening cells near the centre (colours are the caller's business). */
  openingCells(g: RefGame, n: number): number[] {
    const out: number[] = [];
    const taken = new Set<number>();
    for (let i = 0; i < n; i++) {
      const q = this.centreish(g, 2, taken);
      taken.add(q);
      out.push(q);
    }
    return out;
  }

  private hasNeighbour(g: RefGame, q: number): boolean {
    const n = g.size;
    const x0 = q % n;
    const y0 = (q - x0) / n;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const x = x0 + dx;
        const y = y0 + dy;
        if ((dx || dy) && x >= 0 && y >= 0 && x < n && y < n && g.cells[y * n + x] !== EMPTY) return true;
      }
    }
    return false;
  }
}

export const colourName = (c: Color): 'black' | 'white' => (c === BLACK ? 'black' : 'white');
export { BLACK, WHITE };
