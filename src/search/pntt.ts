/**
 * Transposition table for proof-number search.
 *
 * Entry layout (parallel typed arrays, index = bucket * 2 + way):
 *   keyLo, keyHi  Int32   the full 64-bit position hash (keyHi has bit 0 forced to 1 so an
 *                         empty slot never matches)
 *   pn, dn        Int32   proof / disproof numbers (0 = proven / disproven; INF = 2^30)
 *   work          Int32   nodes spent below this entry (the replacement priority)
 *   best          Int16   the move that proved it (OR) or -1
 *   age           Uint8   the search generation that stored it
 * Replacement: 2-way buckets. A new result goes to the way holding the same key, else to an
 * empty way, else to a way stored by an earlier search (`newSearch()`), else to the way with
 * less work, but a proven/disproven entry of the current search is only replaced by another
 * solved one. Without the generations a long batch filled the table with solved entries of
 * earlier positions, and later searches could store nothing.
 */
export const INF = 1 << 30;

/**
 * The tables are shared by searches for either attacker, and a position with the same side to
 * move is an OR node for one and an AND node for the other: its entry must not serve both.
 * Keys of searches with White attacking are XORed with this constant pair.
 */
const WHITE_KEY_LO = 0x5bd1e995 | 0;
const WHITE_KEY_HI = 0x27d4eb2f | 0;

/** The salt XORed into a position's hash to make its key in a search for `attacker`. */
export function attackerKeyLo(attacker: number): number {
  return attacker === 2 ? WHITE_KEY_LO : 0;
}
export function attackerKeyHi(attacker: number): number {
  return attacker === 2 ? WHITE_KEY_HI : 0;
}

export class PnTable {
  readonly bits: number;
  private readonly mask: number;
  readonly keyLo: Int32Array;
  readonly keyHi: Int32Array;
  readonly pn: Int32Array;
  readonly dn: Int32Array;
  readonly work: Int32Array;
  readonly best: Int16Array;
  readonly age: Uint8Array;
  private gen = 1;

  constructor(bits = 20) {
    this.bits = bits;
    const n = 1 << bits;
    this.mask = (n >> 1) - 1;
    this.keyLo = new Int32Array(n);
    this.keyHi = new Int32Array(n);
    this.pn = new Int32Array(n);
    this.dn = new Int32Array(n);
    this.work = new Int32Array(n);
    this.best = new Int16Array(n);
    this.age = new Uint8Array(n);
  }

  /** Start a new search: entries stored so far stay readable but become replaceable. */
  newSearch(): void {
    this.gen = this.gen === 255 ? 1 : this.gen + 1;
    if (this.gen === 1) this.age.fill(0);
  }

  clear(): void {
    this.keyHi.fill(0);
    this.keyLo.fill(0);
  }

  /** Slot index of the entry for this key, or -1. */
  find(lo: number, hi: number): number {
    const h = hi | 1;
    const i = (lo & this.mask) << 1;
    if (this.keyLo[i] === lo && this.keyHi[i] === h) return i;
    if (this.keyLo[i + 1] === lo && this.keyHi[i + 1] === h) return i + 1;
    return -1;
  }

  /** Drop the entry for this key, if there is one. */
  forget(lo: number, hi: number): void {
    const e = this.find(lo, hi);
    if (e >= 0) {
      this.keyLo[e] = 0;
      this.keyHi[e] = 0;
    }
  }

  store(lo: number, hi: number, pn: number, dn: number, work: number, best: number): void {
    const h = hi | 1;
    const i = (lo & this.mask) << 1;
    let slot: number;
    if (this.keyLo[i] === lo && this.keyHi[i] === h) slot = i;
    else if (this.keyLo[i + 1] === lo && this.keyHi[i + 1] === h) slot = i + 1;
    else {
      const solved = pn === 0 || dn === 0;
      const s0 = this.keyHi[i] !== 0 && (this.pn[i] === 0 || this.dn[i] === 0);
      const s1 = this.keyHi[i + 1] !== 0 && (this.pn[i + 1] === 0 || this.dn[i + 1] === 0);
      if (this.keyHi[i] === 0) slot = i;
      else if (this.keyHi[i + 1] === 0) slot = i + 1;
      else if (this.age[i] !== this.gen) slot = i;
      else if (this.age[i + 1] !== this.gen) slot = i + 1;
      else if (s0 && s1 && !solved) return;
      else if (s0 && !solved) slot = i + 1;
      else if (s1 && !solved) slot = i;
      else slot = this.work[i]! <= this.work[i + 1]! ? i : i + 1;
    }
    this.keyLo[slot] = lo;
    this.keyHi[slot] = h;
    this.pn[slot] = pn;
    this.dn[slot] = dn;
    this.work[slot] = work;
    this.best[slot] = best;
    this.age[slot] = this.gen;
  }
}

/**
 * A searcher's tables: for each threat space (plain; wide, with quiet VCF threats; wide with
 * quiet twos) a real one and a relaxed one, and one for the game tree. Disproofs depend on the
 * rules, so each keeps its own; proofs hold under any of them and are read from all (`proof`).
 * The game-tree and relaxed tables are 4x smaller (fewer positions; the relaxed ones only
 * guide); the quiet-twos pair is made on first use.
 */
export class PnTables {
  readonly plain: PnTable;
  readonly wide: PnTable;
  readonly game: PnTable;
  private readonly relaxedPlain: PnTable;
  private readonly relaxedWide: PnTable;
  private twos: PnTable | undefined;
  private relaxedTwos: PnTable | undefined;

  constructor(private readonly bits: number) {
    this.plain = new PnTable(bits);
    this.wide = new PnTable(bits);
    this.game = new PnTable(bits - 2);
    this.relaxedPlain = new PnTable(bits - 2);
    this.relaxedWide = new PnTable(bits - 2);
  }

  /** The real table of a threat space. */
  real(wide: boolean, twos: boolean): PnTable {
    return twos ? this.twosPair()[0] : wide ? this.wide : this.plain;
  }

  /** The relaxed table of a threat space. */
  relaxed(wide: boolean, twos: boolean): PnTable {
    return twos ? this.twosPair()[1] : wide ? this.relaxedWide : this.relaxedPlain;
  }

  private twosPair(): [PnTable, PnTable] {
    this.twos ??= new PnTable(this.bits);
    this.relaxedTwos ??= new PnTable(this.bits - 2);
    return [this.twos, this.relaxedTwos];
  }

  /** A new top-level search: every entry stays readable but becomes replaceable. */
  newSearch(): void {
    for (const tt of this.all()) tt.newSearch();
  }

  clear(): void {
    for (const tt of this.all()) tt.clear();
  }

  private all(): PnTable[] {
    const all = [this.plain, this.wide, this.game, this.relaxedPlain, this.relaxedWide];
    if (this.twos) all.push(this.twos, this.relaxedTwos!);
    return all;
  }

  /** A threat-space proof of key (lo, hi) from any real table: [0, dn, best], or undefined. */
  proof(lo: number, hi: number): [number, number, number] | undefined {
    for (const tt of [this.plain, this.wide, this.twos]) {
      if (!tt) continue;
      const e = tt.find(lo, hi);
      if (e >= 0 && tt.pn[e] === 0) return [0, tt.dn[e]!, tt.best[e]!];
    }
    return undefined;
  }

  /** The entry of key (lo, hi) in `tt`: [pn, dn, best], or undefined. */
  entry(tt: PnTable, lo: number, hi: number): [number, number, number] | undefined {
    const e = tt.find(lo, hi);
    return e < 0 ? undefined : [tt.pn[e]!, tt.dn[e]!, tt.best[e]!];
  }
}
