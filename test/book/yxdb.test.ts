import { describe, expect, test } from 'vitest';
import { BLACK, WHITE } from '../../src/core/types.js';
import { decodeYxdb, encodeYxdb, encodeYxdbStream, labelOf, verdictOf, type YxdbRecord } from '../../src/book/yxdb.js';

const rec = (o: Partial<YxdbRecord>): YxdbRecord => ({
  rule: 0, width: 15, height: 15, black: [], white: [], toMove: BLACK, label: -1, value: 0, depth: 0, bound: 3, text: '', ...o,
});

describe('yxdb', () => {
  test('records round-trip through the LZ4 file and the plain stream', () => {
    const records = [
      rec({ black: [112], white: [], toMove: WHITE, label: labelOf('unknown'), value: -35, depth: 12 }),
      rec({ black: [112, 113], white: [96], toMove: WHITE, label: labelOf('win'), value: 29990, depth: 30, text: 'best j8' }),
      rec({ rule: 1, width: 16, height: 16, black: [0, 255], white: [17, 18], toMove: BLACK, label: labelOf('loss'), value: -29990 }),
      // a swap decision: counts equal but white to move -> written with a pass
      rec({ black: [112], white: [96], toMove: WHITE, label: labelOf('draw') }),
      // black to move with black one stone ahead (white passed) -> pass on the white side
      rec({ black: [112, 113], white: [96], toMove: BLACK }),
    ];
    for (const bytes of [encodeYxdb(records).bytes, encodeYxdbStream(records).bytes]) {
      const back = decodeYxdb(bytes);
      expect(back.ok).toBe(true);
      if (back.ok) expect(back.value).toEqual(records);
    }
  });

  test('unrepresentable side to move is skipped and counted', () => {
    const r = encodeYxdbStream([rec({ black: [1, 2, 3], white: [], toMove: WHITE }), rec({ black: [1], white: [2, 3], toMove: BLACK }), rec({ black: [1], toMove: WHITE })]);
    expect(r).toMatchObject({ written: 1, skipped: 2 });
  });

  test('the stream layout: count, metadata record, key bytes, record bytes', () => {
    const { bytes } = encodeYxdbStream([rec({ black: [112], white: [96], toMove: BLACK, label: 0x77, value: 100, depth: 4 })]);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    expect(dv.getUint32(0, true)).toBe(2);
    expect([...bytes.subarray(4, 9)]).toEqual([3, 0, 0, 0, 0]); // metadata key: len 3, rule 0, 0x0 board
    const metaLen = dv.getUint16(9, true);
    expect(new TextDecoder().decode(bytes.subarray(16, 11 + metaLen))).toBe('charset="UTF-8"');
    const p = 11 + metaLen;
    expect([...bytes.subarray(p, p + 9)]).toEqual([7, 0, 0, 15, 15, 7, 7, 6, 6]); // h8 = (7,7), g9 = (6,6)
    expect(dv.getUint16(p + 9, true)).toBe(5);
    expect(dv.getInt8(p + 11)).toBe(0x77);
    expect(dv.getInt16(p + 12, true)).toBe(100);
    expect(dv.getInt16(p + 14, true)).toBe((4 << 2) | 3);
  });

  test('labels', () => {
    for (const v of ['win', 'loss', 'draw', 'unknown'] as const) expect(verdictOf(labelOf(v))).toBe(v);
    expect(verdictOf(0x57)).toBe('win'); // upper case counts too
  });

  test('truncated input is an error value', () => {
    const { bytes } = encodeYxdbStream([rec({ black: [112], white: [96] })]);
    expect(decodeYxdb(bytes.subarray(0, bytes.length - 3)).ok).toBe(false);
  });
});
