// A synthetic, provably correct VCT certificate of adjustable size, for tests and for
// timing `gomoku verify` (scripts/bench-verify.mjs). Pure JS, no imports (run as a script it
// loads scripts/usage.mjs for --help).
//
// 22x22 board, freestyle, black to move. Black owns k "three slots" (k <= 9) and one fork:
//  - slot i is a row segment of 7 cells on rows 2, 7 or 12, columns base..base+6 with
//    base 0, 8 or 15; black has stones at base+2 and base+3. Slot rows are 5 apart and
//    segments are separated, so no window of five holds stones of two slots.
//  - the fork: d19 e19 (row) and f16 f17 (column); f19 makes an open three d19-f19 and a
//    broken three f16 f17 _ f19 that no single stone stops.
// The strategy: black plays base+4 of slot 0 (an open three). White's only replies that stop
// the open four are the two ends (base+1, base+5); after either, black plays slot 1's
// three, and so on; after slot k-1 is blocked black plays f19. Every other reply leaves an
// open four, so the checker proves it with a one-move VCF. Entries: 2^(k+1) - 1.
//
// Usage: node scripts/chain-certificate.mjs K > chain.jsonl

const SIZE = 22;
const LETTERS = 'abcdefghijklmnopqrstuv';
const pt = (col, row) => LETTERS[col] + String(row); // row counted from the bottom, 1-based
/** Certificate order: row first (bottom row first), then column. */
const key = (p) => Number(p.slice(1)) * 100 + LETTERS.indexOf(p[0]);
const stoneSet = (black, white) => {
  const f = (l) => [...l].sort((a, b) => key(a) - key(b)).join(',');
  return `B:${f(black)};W:${f(white)}`;
};

export function chainSlots(k) {
  if (!Number.isInteger(k) || k < 0 || k > 9) throw new RangeError('k must be 0..9');
  const slots = [];
  for (const row of [2, 7, 12]) for (const base of [0, 8, 15]) slots.push({ row, base });
  return slots.slice(0, k).map(({ row, base }) => ({
    pair: [pt(base + 2, row), pt(base + 3, row)],
    three: pt(base + 4, row),
    blocks: [pt(base + 1, row), pt(base + 5, row)],
  }));
}

export const FORK = { stones: ['d19', 'e19', 'f16', 'f17'], move: 'f19' };

/**
 * The certificate text. `omit` (optional): a line of moves (e.g. ['k2', 'j2']) whose
 * winner-to-move entry is left out, to make a wrong certificate.
 */
export function chainCertificate(k, omit) {
  const slots = chainSlots(k);
  const rootBlack = [...slots.flatMap((s) => s.pair), ...FORK.stones];
  const lines = [
    JSON.stringify({
      format: 'gomoku-proof/1',
      rule: 'freestyle',
      size: SIZE,
      position: stoneSet(rootBlack, []),
      toMove: 'black',
      winner: 'black',
    }),
  ];
  const omitKey = omit ? omit.join(' ') : undefined;
  const walk = (i, black, white, line) => {
    const move = i < k ? slots[i].three : FORK.move;
    if (line.join(' ') !== omitKey) lines.push(JSON.stringify({ stones: stoneSet(black, white), move }));
    if (i === k) return;
    for (const b of slots[i].blocks) walk(i + 1, [...black, move], [...white, b], [...line, move, b]);
  };
  walk(0, rootBlack, [], []);
  return lines.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { helpOnRequest } = await import('./usage.mjs');
  helpOnRequest(import.meta.url);
  const k = Number(process.argv[2] ?? 6);
  if (!Number.isInteger(k) || k < 0 || k > 9) {
    console.error(`chain-certificate: k must be an integer 0..9, got '${process.argv[2]}' (usage: node scripts/chain-certificate.mjs [K])`);
    process.exit(2);
  }
  process.stdout.write(chainCertificate(k));
}
