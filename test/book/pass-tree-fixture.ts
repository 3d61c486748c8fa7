/** The position and build options of the pass-job and pass-tree tests. */
import type { BuildOptions } from '../../src/book/builder.js';
import { runBookJob, type BookJob } from '../../src/book/job.js';
import { assembleProof } from '../../src/book/proof.js';
import type { BookStore as Store } from '../../src/book/store.js';
import { parseCertificate } from '../../src/proof/certificate.js';
import { verifyCertificate } from '../../src/proof/verify.js';
import { transformPoint, type Transform } from '../../src/core/symmetry.js';
import { Board } from '../../src/core/board.js';
import { BLACK, WHITE } from '../../src/core/types.js';
import { parsePoint } from '../../src/core/notation.js';

export const pt = (t: string) => {
  const p = parsePoint(t, 11);
  if (!p.ok) throw new Error(p.error);
  return p.value;
};

// White to move; Black's diagonal open three f5 g6 h7 wins even if White passes (i8, open four)
export const quiet = (t: Transform = 0) => {
  const b = new Board(11, 'freestyle');
  for (const s of ['f5', 'g6', 'h7', 'f7']) b.put(transformPoint(t, pt(s), 11), BLACK);
  for (const s of ['g5', 'e8']) b.put(transformPoint(t, pt(s), 11), WHITE);
  b.setToMove(WHITE);
  return b;
};

export function options(store: Store, over: Partial<BuildOptions> = {}): BuildOptions {
  const b = quiet();
  return {
    store,
    opening: 'roots:quiet',
    size: 11,
    rule: 'freestyle',
    region: 3,
    concurrency: 1,
    budget: { jobs: 400 },
    solveNodes: 2000,
    scoreNodes: 200,
    // enough for the pass child, not for every reply in its zone (the whole needs ~20k)
    passFor: WHITE,
    passNodes: 5000,
    roots: [{ black: b.stones(BLACK), white: b.stones(WHITE), toMove: WHITE }],
    runJob: async (j: BookJob) => runBookJob(j),
    ...over,
  };
}

export function verified(store: Store, b: Board): { result: string; header: string } {
  const r = assembleProof(store, b);
  if (!r.ok) return { result: r.error, header: '' };
  const c = parseCertificate(r.value.certificate);
  if (!c.ok) return { result: 'unparseable', header: '' };
  return { result: verifyCertificate(c.value, { maxMs: 20_000 }).result, header: r.value.certificate.split('\n')[0]! };
}

