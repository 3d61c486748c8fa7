/**
 * A map from 96-bit keys (three 32-bit halves) to non-negative integers, for the checker's
 * memo tables. Open addressing with linear probing in typed arrays: no objects, no strings,
 * no BigInt per lookup. Grows (doubles) when half full.
 *
 * Two different positions share a key only if all 96 bits collide; with a million stored
 * positions that chance is about 1e-17, which the checker accepts (see verify.ts).
 */
export class HashTable96 {
  private mask: number;
  private k1: Int32Array;
  private k2: Int32Array;
  private k3: Int32Array;
  /** value + 1; 0 marks an empty slot. */
  private v: Int32Array;
  size = 0;

  constructor(capacityLog2 = 12) {
    const cap = 1 << capacityLog2;
    this.mask = cap - 1;
    this.k1 = new Int32Array(cap);
    this.k2 = new Int32Array(cap);
    this.k3 = new Int32Array(cap);
    this.v = new Int32Array(cap);
  }

  /** The value stored under the key, or -1. */
  get(a: number, b: number, c: number): number {
    const mask = this.mask;
    let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    for (;;) {
      const v = this.v[i]!;
      if (v === 0) return -1;
      if (this.k1[i] === a && this.k2[i] === b && this.k3[i] === c) return v - 1;
      i = (i + 1) & mask;
    }
  }

  set(a: number, b: number, c: number, value: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const mask = this.mask;
    let i = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    for (;;) {
      const v = this.v[i]!;
      if (v === 0) {
        this.k1[i] = a;
        this.k2[i] = b;
        this.k3[i] = c;
        this.v[i] = value + 1;
        this.size++;
        return;
      }
      if (this.k1[i] === a && this.k2[i] === b && this.k3[i] === c) {
        this.v[i] = value + 1;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  clear(): void {
    this.v.fill(0);
    this.size = 0;
  }

  private grow(): void {
    const { k1, k2, k3, v } = this;
    const cap = (this.mask + 1) * 2;
    this.mask = cap - 1;
    this.k1 = new Int32Array(cap);
    this.k2 = new Int32Array(cap);
    this.k3 = new Int32Array(cap);
    this.v = new Int32Array(cap);
    this.size = 0;
    for (let i = 0; i < v.length; i++) if (v[i] !== 0) this.set(k1[i]!, k2[i]!, k3[i]!, v[i]! - 1);
  }
}
