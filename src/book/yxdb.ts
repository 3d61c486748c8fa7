/**
 * The Yixin/Rapfi database format (`.yxdb`), so Yixin-Board and Rapfi users can browse our
 * book. Learned from the sample file and Rapfi's public description of the format; the
 * layout (little endian) of the uncompressed stream is:
 *
 *   u32 record count (the metadata record included)
 *   per record:
 *     u16 key length, then the key: u8 rule (0 freestyle, 1 standard, 2 renju),
 *         u8 width, u8 height, then (x, y) int8 pairs: the black stones first, then the
 *         white ones, each colour in (x, y) order. With n pairs, black owns the first ceil(n/2) and white the rest, so
 *         the side to move follows from the counts; a position where it does not is
 *         written with a pass (-1, -1) appended to the side that would otherwise be short
 *         (so only black = white or black = white + 1 stones can be written).
 *         x is the column from the left, y the row from the top.
 *     u16 record length, then: i8 label ('w' win, 'l' loss, 'd' draw for the side to move,
 *         -1 undetermined, 0 null record), i16 value (mate scores near +-30000),
 *         i16 depth-bound (depth << 2 | bound, bound 3 = exact), then UTF-8 text.
 *   The first record is metadata: width = height = 0 and text `charset="UTF-8"`.
 *
 * Files are usually LZ4 frames (book/lz4.ts); an uncompressed stream is accepted too.
 */
import { BLACK, WHITE, err, ok, type Color, type Result } from '../core/types.js';
import { GrowableBytes, isLz4Frame, lz4Decode, lz4Encode } from './lz4.js';

export const YX_RULE_FREESTYLE = 0;
export const YX_RULE_STANDARD = 1;
export const YX_RULE_RENJU = 2;
export const YX_LABEL_NONE = -1;
export const YX_BOUND_EXACT = 3;

export interface YxdbRecord {
  rule: number;
  width: number;
  height: number;
  /** Point indices (row * width + col, row 0 at the top). */
  black: number[];
  white: number[];
  toMove: Color;
  label: number;
  value: number;
  depth: number;
  bound: number;
  text: string;
}

const METADATA = 'charset="UTF-8"';

export function labelOf(verdict: 'win' | 'loss' | 'draw' | 'unknown'): number {
  return verdict === 'win' ? 0x77 : verdict === 'loss' ? 0x6c : verdict === 'draw' ? 0x64 : YX_LABEL_NONE;
}

export function verdictOf(label: number): 'win' | 'loss' | 'draw' | 'unknown' {
  const c = String.fromCharCode(label).toLowerCase();
  return c === 'w' ? 'win' : c === 'l' ? 'loss' : c === 'd' ? 'draw' : 'unknown';
}

/** Can the format hold this side to move with these counts (at most one pass)? */
export function representable(nb: number, nw: number, toMove: Color): boolean {
  void toMove; // either side can be to move: the other one is given a pass
  return nb === nw || nb === nw + 1;
}

class Writer extends GrowableBytes {
  u8(v: number): void {
    this.reserve(1);
    this.buf[this.len++] = v & 255;
  }
  u16(v: number): void {
    this.u8(v);
    this.u8(v >>> 8);
  }
  u32(v: number): void {
    this.u16(v & 0xffff);
    this.u16(v >>> 16);
  }
  at(pos: number, v: number): void {
    this.buf[pos] = v & 255;
    this.buf[pos + 1] = (v >>> 8) & 255;
  }
}

/** The uncompressed stream for these records (positions the format cannot hold are skipped). */
export function encodeYxdbStream(records: Iterable<YxdbRecord>): { bytes: Uint8Array; written: number; skipped: number } {
  const w = new Writer();
  w.u32(0); // patched below
  const enc = new TextEncoder();
  const meta = enc.encode(METADATA);
  w.u16(3);
  w.u8(0);
  w.u8(0);
  w.u8(0);
  w.u16(5 + meta.length);
  for (let i = 0; i < 5; i++) w.u8(0);
  w.bytes(meta);
  let written = 0;
  let skipped = 0;
  for (const r of records) {
    const nb = r.black.length;
    const nw = r.white.length;
    if (!representable(nb, nw, r.toMove) || nb + nw + 1 > 255 || r.width > 32 || r.height > 32) {
      skipped++;
      continue;
    }
    const normal: Color = (nb + nw) % 2 === 0 ? BLACK : WHITE;
    const pass = normal !== r.toMove;
    const pairs = nb + nw + (pass ? 1 : 0);
    w.u16(3 + 2 * pairs);
    w.u8(r.rule);
    w.u8(r.width);
    w.u8(r.height);
    const put = (q: number) => {
      w.u8(q % r.width);
      w.u8(Math.floor(q / r.width));
    };
    // stones in (x, y) order, as Rapfi writes them
    const order = (a: number, b: number) => (a % r.width) - (b % r.width) || a - b;
    for (const q of [...r.black].sort(order)) put(q);
    if (pass && normal === BLACK) w.u16(0xffff);
    for (const q of [...r.white].sort(order)) put(q);
    if (pass && normal === WHITE) w.u16(0xffff);
    const text = enc.encode(r.text);
    w.u16(5 + text.length);
    w.u8(r.label);
    w.u16(Math.max(-32768, Math.min(32767, Math.round(r.value))) & 0xffff);
    w.u16(((r.depth << 2) | (r.bound & 3)) & 0xffff);
    w.bytes(text);
    written++;
  }
  const bytes = w.done();
  const n = written + 1;
  bytes[0] = n & 255;
  bytes[1] = (n >>> 8) & 255;
  bytes[2] = (n >>> 16) & 255;
  bytes[3] = (n >>> 24) & 255;
  return { bytes, written, skipped };
}

export function encodeYxdb(records: Iterable<YxdbRecord>): { bytes: Uint8Array; written: number; skipped: number } {
  const s = encodeYxdbStream(records);
  return { ...s, bytes: lz4Encode(s.bytes) };
}

/** Read a `.yxdb` file (LZ4 frame or plain stream) into records (the metadata record dropped). */
export function decodeYxdb(file: Uint8Array): Result<YxdbRecord[]> {
  let b = file;
  if (isLz4Frame(file)) {
    const d = lz4Decode(file);
    if (!d.ok) return d;
    b = d.value;
  }
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 4) return err('truncated yxdb: no record count');
  const count = dv.getUint32(0, true);
  let p = 4;
  const out: YxdbRecord[] = [];
  const dec = new TextDecoder('utf-8', { fatal: false });
  for (let idx = 0; idx < count; idx++) {
    if (p + 2 > b.length) return err(`truncated yxdb at record ${idx}`);
    const klen = dv.getUint16(p, true);
    p += 2;
    if (klen === 0) continue;
    if (klen < 3 || p + klen > b.length) return err(`bad key length at record ${idx}`);
    const rule = b[p]!;
    const width = b[p + 1]!;
    const height = b[p + 2]!;
    const pairs = (klen - 3) >> 1;
    const nb = (pairs + 1) >> 1;
    const black: number[] = [];
    const white: number[] = [];
    for (let k = 0; k < pairs; k++) {
      const x = dv.getInt8(p + 3 + 2 * k);
      const y = dv.getInt8(p + 4 + 2 * k);
      if (x === -1 && y === -1) continue; // a pass: only shifts the side to move
      if (x < 0 || y < 0 || x >= width || y >= height) return err(`stone off the board at record ${idx}`);
      (k < nb ? black : white).push(y * width + x);
    }
    p += klen;
    if (p + 2 > b.length) return err(`truncated yxdb at record ${idx}`);
    const rlen = dv.getUint16(p, true);
    p += 2;
    if (p + rlen > b.length) return err(`bad record length at record ${idx}`);
    const label = rlen > 0 ? dv.getInt8(p) : 0;
    const value = rlen > 2 ? dv.getInt16(p + 1, true) : 0;
    const db = rlen > 4 ? dv.getInt16(p + 3, true) : 0;
    const text = rlen > 5 ? dec.decode(b.subarray(p + 5, p + rlen)) : '';
    p += rlen;
    if (width === 0 && height === 0) continue; // metadata (old files in a legacy code page are read as UTF-8)
    const toMove: Color = pairs % 2 === 0 ? BLACK : WHITE;
    out.push({ rule, width, height, black, white, toMove, label, value, depth: db >> 2, bound: db & 3, text });
  }
  return ok(out);
}
