/**
 * A small LZ4 frame codec (the LZ4 Frame Format 1.6 and LZ4 Block Format specifications),
 * enough for the Yixin/Rapfi database files: decode any frame (compressed or stored blocks,
 * linked or independent blocks, optional checksums and content size), encode with
 * independent 64 KB blocks and a greedy hash-chain-free matcher (one candidate per hash).
 * Written from the format specification; no third-party code.
 */
import { err, ok, type Result } from '../core/types.js';

const MAGIC = 0x184d2204;
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

const rotl = (x: number, r: number) => ((x << r) | (x >>> (32 - r))) >>> 0;
const mul = (a: number, b: number) => Math.imul(a, b) >>> 0;
const read32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/** xxHash32 of `data[start, end)`. */
export function xxh32(data: Uint8Array, seed = 0, start = 0, end = data.length): number {
  let i = start;
  let acc: number;
  const len = end - start;
  if (len >= 16) {
    let v1 = (seed + P1 + P2) >>> 0;
    let v2 = (seed + P2) >>> 0;
    let v3 = seed >>> 0;
    let v4 = (seed - P1) >>> 0;
    const limit = end - 16;
    while (i <= limit) {
      v1 = mul(rotl((v1 + mul(read32(data, i), P2)) >>> 0, 13), P1);
      v2 = mul(rotl((v2 + mul(read32(data, i + 4), P2)) >>> 0, 13), P1);
      v3 = mul(rotl((v3 + mul(read32(data, i + 8), P2)) >>> 0, 13), P1);
      v4 = mul(rotl((v4 + mul(read32(data, i + 12), P2)) >>> 0, 13), P1);
      i += 16;
    }
    acc = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else {
    acc = (seed + P5) >>> 0;
  }
  acc = (acc + len) >>> 0;
  while (i + 4 <= end) {
    acc = mul(rotl((acc + mul(read32(data, i), P3)) >>> 0, 17), P4);
    i += 4;
  }
  while (i < end) {
    acc = mul(rotl((acc + mul(data[i]!, P5)) >>> 0, 11), P1);
    i++;
  }
  acc = mul(acc ^ (acc >>> 15), P2);
  acc = mul(acc ^ (acc >>> 13), P3);
  return (acc ^ (acc >>> 16)) >>> 0;
}

export function isLz4Frame(b: Uint8Array): boolean {
  return b.length >= 4 && read32(b, 0) === MAGIC;
}

/** A byte buffer that doubles as it fills (the decoder's output; yxdb.ts writes with it too). */
export class GrowableBytes {
  buf = new Uint8Array(1 << 16);
  len = 0;
  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.buf.subarray(0, this.len));
    this.buf = nb;
  }
  /** Append a copy of `b` (or of `b[start, end)`). */
  bytes(b: Uint8Array, start = 0, end = b.length): void {
    this.reserve(end - start);
    this.buf.set(b.subarray(start, end), this.len);
    this.len += end - start;
  }
  /** The bytes written so far, copied out. */
  done(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** Decode one LZ4 block from `src[start, end)` onto `out` (matches may reach into earlier output). */
function decodeBlock(src: Uint8Array, start: number, end: number, out: GrowableBytes, floor: number): string | undefined {
  let i = start;
  while (i < end) {
    const token = src[i++]!;
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (i >= end) return 'truncated literal length';
        b = src[i++]!;
        lit += b;
      } while (b === 255);
    }
    if (i + lit > end) return 'literals run past the block';
    out.bytes(src, i, i + lit);
    i += lit;
    if (i >= end) break; // the last sequence has literals only
    if (i + 2 > end) return 'truncated match offset';
    const offset = src[i]! | (src[i + 1]! << 8);
    i += 2;
    if (offset === 0 || offset > out.len - floor) return 'match offset out of range';
    let ml = (token & 15) + 4;
    if ((token & 15) === 15) {
      let b: number;
      do {
        if (i >= end) return 'truncated match length';
        b = src[i++]!;
        ml += b;
      } while (b === 255);
    }
    out.reserve(ml);
    const buf = out.buf;
    let from = out.len - offset;
    for (let k = 0; k < ml; k++) buf[out.len++] = buf[from++]!; // byte by byte: overlaps are legal
  }
  return undefined;
}

/** Decode a whole LZ4 frame (concatenated frames are decoded one after another). */
export function lz4Decode(src: Uint8Array): Result<Uint8Array> {
  const out = new GrowableBytes();
  let i = 0;
  while (i < src.length) {
    if (i + 7 > src.length) return err('truncated LZ4 frame header');
    const magic = read32(src, i);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      // skippable frame
      const n = read32(src, i + 4);
      i += 8 + n;
      continue;
    }
    if (magic !== MAGIC) return err('not an LZ4 frame (bad magic number)');
    const descStart = i + 4;
    const flg = src[descStart]!;
    const bd = src[descStart + 1]!;
    if (flg >>> 6 !== 1) return err(`unsupported LZ4 frame version ${flg >>> 6}`);
    const independent = (flg & 0x20) !== 0;
    const blockChecksum = (flg & 0x10) !== 0;
    const hasSize = (flg & 0x08) !== 0;
    const contentChecksum = (flg & 0x04) !== 0;
    const hasDict = (flg & 0x01) !== 0;
    if (hasDict) return err('LZ4 frames with a dictionary are not supported');
    const maxBlock = 1 << (8 + 2 * ((bd >>> 4) & 7));
    let p = descStart + 2 + (hasSize ? 8 : 0);
    if (p >= src.length) return err('truncated LZ4 frame header');
    const hc = src[p]!;
    if (((xxh32(src, 0, descStart, p) >>> 8) & 0xff) !== hc) return err('LZ4 frame header checksum mismatch');
    p++;
    const frameStart = out.len;
    for (;;) {
      if (p + 4 > src.length) return err('truncated LZ4 block');
      const word = read32(src, p);
      p += 4;
      if (word === 0) break;
      const stored = (word & 0x80000000) !== 0;
      const size = word & 0x7fffffff;
      if (size > maxBlock || p + size > src.length) return err('LZ4 block size out of range');
      if (stored) {
        out.bytes(src, p, p + size);
      } else {
        const floor = independent ? out.len : frameStart;
        const e = decodeBlock(src, p, p + size, out, floor);
        if (e) return err(`corrupt LZ4 block: ${e}`);
      }
      if (blockChecksum) {
        if (p + size + 4 > src.length) return err('truncated LZ4 block checksum');
        if (xxh32(src, 0, p, p + size) !== read32(src, p + size)) return err('LZ4 block checksum mismatch');
      }
      p += size + (blockChecksum ? 4 : 0);
    }
    if (contentChecksum) {
      if (p + 4 > src.length) return err('truncated LZ4 content checksum');
      if (xxh32(out.buf, 0, frameStart, out.len) !== read32(src, p)) return err('LZ4 content checksum mismatch');
      p += 4;
    }
    i = p;
  }
  return ok(out.done());
}

const BLOCK = 1 << 16;
const HASH_BITS = 13;

function writeLength(dst: number[], n: number): void {
  while (n >= 255) {
    dst.push(255);
    n -= 255;
  }
  dst.push(n);
}

function compressBlock(src: Uint8Array, start: number, end: number, table: Int32Array): number[] {
  const out: number[] = [];
  const n = end - start;
  table.fill(-1);
  let anchor = start;
  let i = start;
  const matchLimit = end - 12; // a match may not start in the last 12 bytes
  const copyLimit = end - 5; // nor cover the last 5
  const emit = (litEnd: number, offset: number, ml: number) => {
    const lit = litEnd - anchor;
    out.push((Math.min(lit, 15) << 4) | (ml ? Math.min(ml - 4, 15) : 0));
    if (lit >= 15) writeLength(out, lit - 15);
    for (let k = anchor; k < litEnd; k++) out.push(src[k]!);
    if (ml) {
      out.push(offset & 255, offset >>> 8);
      if (ml - 4 >= 15) writeLength(out, ml - 4 - 15);
    }
  };
  if (n >= 13) {
    while (i < matchLimit) {
      const seq = read32(src, i);
      const h = Math.imul(seq, 2654435761) >>> (32 - HASH_BITS);
      const ref = table[h]!;
      table[h] = i;
      if (ref >= 0 && i - ref <= 65535 && read32(src, ref) === seq) {
        let ml = 4;
        while (i + ml < copyLimit && src[ref + ml] === src[i + ml]) ml++;
        emit(i, i - ref, ml);
        i += ml;
        anchor = i;
      } else i++;
    }
  }
  emit(end, 0, 0);
  return out;
}

/** Encode as one LZ4 frame: independent 64 KB blocks, content checksum, readable by `lz4 -d`. */
export function lz4Encode(src: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const flg = 0x40 | 0x20 | 0x04; // version 1, independent blocks, content checksum
  const bd = 4 << 4; // 64 KB blocks
  const desc = new Uint8Array([flg, bd]);
  const header = new Uint8Array(7);
  header.set([0x04, 0x22, 0x4d, 0x18, flg, bd, (xxh32(desc) >>> 8) & 0xff]);
  parts.push(header);
  const table = new Int32Array(1 << HASH_BITS);
  const u32 = (n: number) => new Uint8Array([n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]);
  for (let s = 0; s < src.length; s += BLOCK) {
    const e = Math.min(src.length, s + BLOCK);
    const c = compressBlock(src, s, e, table);
    if (c.length < e - s) {
      parts.push(u32(c.length), Uint8Array.from(c));
    } else {
      parts.push(u32(((e - s) | 0x80000000) >>> 0), src.subarray(s, e));
    }
  }
  parts.push(u32(0), u32(xxh32(src)));
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
