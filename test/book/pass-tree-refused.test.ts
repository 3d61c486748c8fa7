/**
 * A pass tree whose disproof the checker refuses (issue 24): the builder checks the certificate
 * it assembles for a pass-tree node before the disproof stands; where it fails, the reply its
 * failing line starts with becomes a child, and the node is proven again only with it. On its
 * own file: it needs a solver that has not learned this position yet (see the fixture).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { buildBook } from '../../src/book/builder.js';
import { runBookJob } from '../../src/book/job.js';
import { verifyBook } from '../../src/book/verify-all.js';
import { EXPAND_ZONE } from '../../src/book/pn-tree.js';
import { bookPositionOf } from '../../src/book/canonical.js';
import { openStore, tempDir } from './helpers.js';
import { options, quiet, verified } from './pass-tree-fixture.js';

let tmp = tempDir();
afterEach(() => {
  tmp.cleanup();
  tmp = tempDir();
});

describe('pass trees, refused', () => {
  test('a disproof whose certificate fails is refused: the reply it fails on becomes a child, and the node is proven again', async () => {
    const s = openStore(tmp.file('refused.db'));
    const r = await buildBook(
      options(s, {
        solveNodes: 20000,
        runJob: async (j) => {
          const x = runBookJob(j);
          // a lying worker: no zone and no repairs, so the replies the repairs covered fail
          if (x.passTree) x.passTree = { ...x.passTree, zone: [], covered: [] };
          return x;
        },
      }),
    );
    expect(r.zoneRejected).toBeGreaterThan(0);
    expect(r).toMatchObject({ stoppedBy: 'done', openRoots: 0 });
    const root = s.get('freestyle', bookPositionOf(quiet()).key)!;
    expect(root).toMatchObject({ verdict: 'loss', expanded: EXPAND_ZONE });
    expect(verified(s, quiet()).result).toBe('verified');
    const all = verifyBook(s);
    expect(all.verified).toBe(all.decided);
    s.close();
  });

});
