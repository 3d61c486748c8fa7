import { describe, expect, test } from 'vitest';
import { geometry, renderBoardSvg, stoneSvg } from '../../src/view/board-svg.js';
import { BLACK, WHITE } from '../../src/core/types.js';

const H8 = 7 * 15 + 7;
const I9 = 6 * 15 + 8;

describe('the board picture', () => {
  test('a point and the cell under it: the geometry is its own inverse on every size', () => {
    for (const size of [5, 9, 15, 22]) {
      for (const coords of [true, false]) {
        const g = geometry(size, coords);
        for (let q = 0; q < size * size; q++) {
          const col = q % size;
          const row = (q - col) / size;
          expect(g.cellAt(g.x(col), g.y(row))).toBe(q);
          expect(g.cellAt(g.x(col) + 15, g.y(row) - 15)).toBe(q);
        }
        expect(g.cellAt(g.x(0) - 17, g.y(0))).toBe(-1);
        expect(g.cellAt(g.x(0) - 15, g.y(0))).toBe(0);
        expect(g.cellAt(g.width + 20, g.width / 2)).toBe(-1);
      }
    }
  });

  test('coordinates as the CLI writes them: letters, rows counted from the bottom', () => {
    const svg = renderBoardSvg({ size: 15, stones: [] });
    expect(svg).toContain('>a</text>');
    expect(svg).toContain('>o</text>');
    expect(svg).not.toContain('>p</text>');
    expect(svg).toContain('>15</text>');
    // the top row (row 0) is labelled 15
    const g = geometry(15);
    expect(svg).toContain(`<text x="${30 / 2}" y="${g.y(0)}">15</text>`);
    expect(renderBoardSvg({ size: 22, stones: [] })).toContain('>v</text>');
    expect(renderBoardSvg({ size: 15, stones: [], coordinates: false })).not.toContain('>a</text>');
  });

  test('stones, numbers, the last move, marks, a line and rings', () => {
    const svg = renderBoardSvg({
      size: 15,
      stones: [
        { index: H8, color: BLACK },
        { index: I9, color: WHITE },
      ],
      numbers: true,
      lastMove: I9,
      marks: [{ index: 0, text: '<3>', tone: 'mine' }],
      line: [1, 2],
      lineFirst: BLACK,
      ring: [H8],
    });
    expect(svg).toContain('class="stone black" data-point="h8"');
    expect(svg).toContain('class="stone white" data-point="i9"');
    expect(svg).toContain('class="num last" data-fill="#111"');
    expect(svg).toContain('>&lt;3&gt;</text>');
    expect(svg.match(/class="line"/g)).toHaveLength(2);
    expect(svg).toContain('class="ring"');
    // without numbers the last move gets a dot; a setup is not numbered
    expect(renderBoardSvg({ size: 15, stones: [{ index: H8, color: BLACK }], lastMove: H8 })).toContain('<circle class="last"');
    const set = renderBoardSvg({
      size: 15,
      stones: [
        { index: H8, color: BLACK },
        { index: I9, color: WHITE },
      ],
      numbers: true,
      numberFrom: 1,
    });
    expect(set.match(/class="num/g)).toHaveLength(1);
    expect(set).toContain('>1</text>');
  });

  test('one stone alone is what the whole picture draws for it', () => {
    const one = stoneSvg(15, { index: H8, color: BLACK }, { number: 3, last: true });
    expect(
      renderBoardSvg({
        size: 15,
        stones: [
          { index: 0, color: WHITE },
          { index: 1, color: BLACK },
          { index: H8, color: BLACK },
        ],
        numbers: true,
        lastMove: H8,
      }),
    ).toContain(one);
  });
});
