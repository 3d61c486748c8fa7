import { describe, expect, test } from 'vitest';
import seedrandom from 'seedrandom';
import { isLz4Frame, lz4Decode, lz4Encode, xxh32 } from '../../src/book/lz4.js';

const enc = new TextEncoder();

describe('xxh32', () => {
  test('reference values', () => {
    expect(xxh32(new Uint8Array(0))).toBe(0x02cc5d05);
    expect(xxh32(enc.encode('abc'))).toBe(0x32d153ff);
    expect(xxh32(enc.encode('Nobody inspects the spammish repetition'))).toBe(0xe2293b2f);
  });
});

describe('LZ4 frames', () => {
  const rng = seedrandom('lz4');
  const cases: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['tiny', enc.encode('abc')],
    ['repetitive 200 KB', enc.encode('gomoku book h8 i9 '.repeat(11000))],
    ['random 100 KB', Uint8Array.from({ length: 100_000 }, () => Math.floor(rng() * 256))],
    ['runs', Uint8Array.from({ length: 70_000 }, (_, i) => (i >> 9) & 3)],
  ];
  test.each(cases)('%s round-trips', (_name, data) => {
    const frame = lz4Encode(data);
    expect(isLz4Frame(frame)).toBe(true);
    const back = lz4Decode(frame);
    expect(back.ok).toBe(true);
    if (back.ok) expect(Buffer.from(back.value).equals(Buffer.from(data))).toBe(true);
  });

  test('repetitive data is compressed', () => {
    const data = enc.encode('gomoku book h8 i9 '.repeat(11000));
    expect(lz4Encode(data).length).toBeLessThan(data.length / 20);
  });

  test('corruption is an error value', () => {
    const frame = lz4Encode(enc.encode('some text some text some text some text'.repeat(50)));
    const badHeader = frame.slice();
    badHeader[6]! ^= 0xff;
    expect(lz4Decode(badHeader)).toMatchObject({ ok: false, error: 'LZ4 frame header checksum mismatch' });
    const badBody = frame.slice();
    badBody[12]! ^= 0x55;
    expect(lz4Decode(badBody).ok).toBe(false);
    expect(lz4Decode(frame.subarray(0, frame.length - 6)).ok).toBe(false);
    expect(lz4Decode(enc.encode('not lz4 at all')).ok).toBe(false);
  });
});
