/**
 * The job-level proof-number tree of a book build (pure, in memory; the builder mirrors it
 * into the store). Negamax form: every node's numbers are for its own side to move,
 *   pn(n) = min over children of dn(c)      (one refuted reply proves n)
 *   dn(n) = sum over children of pn(c)      (every reply must be proven to disprove n)
 * capped at INF. The tree is a DAG (transpositions share a node), so sums may count a shared
 * subtree twice: numbers are a guide to effort only, never a claim; claims come from proven
 * leaves (solver jobs with a strategy) and from min/sum reaching 0.
 *
 * Leaves: not yet evaluated (1, 1); solved win (0, INF) / loss (INF, 0); evaluated but
 * unknown: heuristic numbers from the engine score (a good score for the side to move makes
 * it cheap to prove and dear to disprove). Draws are (INF, INF): never selected, never a
 * proof.
 *
 * Expansion has two stages: NEAR (the empty cells within distance 2 of a stone, which holds
 * every move worth playing in an opening) and FULL (every empty cell). Only a FULL node may
 * be disproven by its children (dn = 0 means "every legal reply loses"); a NEAR node whose
 * generated replies are all refuted keeps dn >= 1 and is widened when selected.
 *
 * Selection (`select`): the most-proving node, descending from the root with the smallest
 * min(pn, dn) through the child with the smallest dn, skipping nodes that have a job in
 * flight (so several workers get different leaves). Where nothing is near a proof (the
 * root's min(pn, dn) above `provableBelow`), `selectDropOut` chooses instead by drop-out
 * expansion (Lincke 2000): the leaf with the smallest ply * omega + sum of score drops from
 * the best sibling along its path, so the book grows along the lines good play follows.
 */
export const INF = 1_000_000_000;

export const EXPAND_NONE = 0;
export const EXPAND_NEAR = 1;
export const EXPAND_FULL = 2;
/**
 * A loser-to-move node proven by pass and zone as a tree (issue 24): its children are the
 * pass child (edge PASS_MOVE, already won) and the replies the pass strategy does not refute;
 * every other reply is refuted by that strategy, so such a node may be disproven by its
 * listed children. The builder checks that claim with the independent checker before it
 * stands (builder.ts): a failed check lists the reply it failed on (or, with none, widens the
 * node to FULL), and one that runs out of time holds the node open.
 */
export const EXPAND_ZONE = 3;
/** The move of a pass edge (the same stones, the other side to move); the store's PASS_ENTRY. */
export const PASS_MOVE = -1;

export interface PnNode {
  id: number;
  pn: number;
  dn: number;
  /** Engine score (side to move), or the negamax backup for interior nodes. */
  score: number;
  evaluated: boolean;
  /** Solved by a job (its own strategy), as opposed to by its children. */
  solved: 'win' | 'loss' | 'draw' | null;
  expanded: number;
  children: { move: number; child: number }[];
  parents: number[];
  inFlight: boolean;
  /** A zone node whose disproof the checker could not decide in its time: held open (this run). */
  held?: boolean;
  /** Evaluated, but to be evaluated again (a bigger pass job) before it is expanded. */
  retry?: boolean;
}

export type Action = { kind: 'evaluate'; node: number } | { kind: 'expand'; node: number; stage: number };

export interface PnTreeOptions {
  /** Heuristic scale: a score of +scale makes pn half and dn double (default 300). */
  scoreScale?: number;
  /** Use drop-out expansion when the best root's min(pn, dn) is at least this (default 64). */
  provableBelow?: number;
  /** Drop-out expansion depth weight (default 40, in score units per ply). */
  omega?: number;
}

const cap = (x: number) => (x >= INF ? INF : x);

export class PnTree {
  readonly nodes = new Map<number, PnNode>();
  readonly roots: number[] = [];
  private readonly scale: number;
  readonly provableBelow: number;
  private readonly omega: number;

  constructor(opts: PnTreeOptions = {}) {
    this.scale = opts.scoreScale ?? 300;
    this.provableBelow = opts.provableBelow ?? 64;
    this.omega = opts.omega ?? 40;
  }

  node(id: number): PnNode {
    const n = this.nodes.get(id);
    if (!n) throw new Error(`pn-tree: no node ${id}`);
    return n;
  }

  /** Add (or find) a node. */
  add(id: number): PnNode {
    let n = this.nodes.get(id);
    if (!n) {
      n = { id, pn: 1, dn: 1, score: 0, evaluated: false, solved: null, expanded: EXPAND_NONE, children: [], parents: [], inFlight: false };
      this.nodes.set(id, n);
    }
    return n;
  }

  addRoot(id: number): PnNode {
    const n = this.add(id);
    if (!this.roots.includes(id)) this.roots.push(id);
    return n;
  }

  link(parent: number, move: number, child: number): void {
    const p = this.add(parent);
    const c = this.add(child);
    if (p.children.some((e) => e.move === move)) return;
    p.children.push({ move, child });
    if (!c.parents.includes(parent)) c.parents.push(parent);
  }

  /** Record a job's result on a node (does not propagate; call `update`). */
  setLeaf(id: number, verdict: 'win' | 'loss' | 'draw' | 'unknown', score: number): void {
    const n = this.node(id);
    n.evaluated = true;
    n.score = score;
    n.solved = verdict === 'unknown' ? null : verdict;
  }

  private leafNumbers(n: PnNode): [number, number] {
    if (n.solved === 'win') return [0, INF];
    if (n.solved === 'loss') return [INF, 0];
    if (n.solved === 'draw') return [INF, INF];
    if (!n.evaluated) return [1, 1];
    const f = Math.pow(2, n.score / this.scale);
    const base = 4;
    return [Math.max(1, Math.min(1000, Math.round(base / f))), Math.max(1, Math.min(1000, Math.round(base * f)))];
  }

  /** Recompute one node from its children (or its leaf value); true when something changed. */
  recompute(id: number): boolean {
    const n = this.node(id);
    let pn: number;
    let dn: number;
    let score = n.score;
    if (n.solved !== null || n.children.length === 0) {
      [pn, dn] = this.leafNumbers(n);
    } else {
      pn = INF;
      dn = 0;
      let best = -Infinity;
      let real = 0;
      for (const e of n.children) {
        const c = this.node(e.child);
        if (e.move === PASS_MOVE) {
          // a pass proves nothing for the side to move; for a zone node it is one more
          // thing the other side must win
          if (n.expanded === EXPAND_ZONE) dn = cap(dn + c.pn);
          continue;
        }
        real++;
        if (c.dn < pn) pn = c.dn;
        dn = cap(dn + c.pn);
        if (c.evaluated || c.children.length > 0) best = Math.max(best, -c.score);
      }
      if (real === 0) pn = this.leafNumbers(n)[0];
      if (n.expanded !== EXPAND_FULL && n.expanded !== EXPAND_ZONE && dn === 0) dn = 1; // unlisted replies are not refuted
      if (n.held && dn === 0) dn = 1;
      if (best > -Infinity) score = best;
    }
    const changed = pn !== n.pn || dn !== n.dn || score !== n.score;
    n.pn = pn;
    n.dn = dn;
    n.score = score;
    return changed;
  }

  /** Recompute `id` and every ancestor whose numbers change. Returns the ids that changed. */
  update(id: number): number[] {
    const changed: number[] = [];
    const queue = [id];
    const queued = new Set(queue);
    while (queue.length > 0) {
      const x = queue.shift()!;
      queued.delete(x);
      if (this.recompute(x) || x === id) {
        changed.push(x);
        for (const p of this.node(x).parents) {
          if (!queued.has(p)) {
            queued.add(p);
            queue.push(p);
          }
        }
      }
    }
    return changed;
  }

  /** Recompute everything bottom-up (after loading a tree). */
  recomputeAll(): void {
    const state = new Map<number, number>(); // 1 visiting, 2 done
    const visit = (id: number) => {
      const stack: [number, number][] = [[id, 0]];
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const n = this.node(top[0]);
        if (top[1] === 0) {
          if (state.get(n.id) === 2) {
            stack.pop();
            continue;
          }
          state.set(n.id, 1);
        }
        if (top[1] < n.children.length) {
          const c = n.children[top[1]++]!.child;
          if (!state.has(c)) stack.push([c, 0]);
          continue;
        }
        this.recompute(n.id);
        state.set(n.id, 2);
        stack.pop();
      }
    };
    for (const r of this.roots) visit(r);
  }

  /** Proven for the side to move / disproven (every reply loses). */
  verdictOf(id: number): 'win' | 'loss' | 'unknown' {
    const n = this.node(id);
    if (n.pn === 0) return 'win';
    if (n.dn === 0) return 'loss';
    return 'unknown';
  }

  /**
   * The move to store: a refuting child for a win, else the best-scored child. `own` is the
   * move stored so far (the node's own search's move, or an earlier answer of this): while
   * its child has no score of its own it stands, since a child that is only listed says
   * nothing and a minimax over the few children scored so far is no better than the search.
   * Undefined: nothing to say better than `own` (no child scored, or none listed).
   */
  bestChild(id: number, own: number | null = null): { move: number; child: number } | undefined {
    const n = this.node(id);
    let best: { move: number; child: number } | undefined;
    let bestKey = Infinity;
    let ownOpen = false;
    let unscored = false;
    for (const e of n.children) {
      if (e.move === PASS_MOVE) continue;
      const c = this.node(e.child);
      if (c.dn === 0) return e; // a proven refutation
      const scored = c.pn === 0 || c.evaluated || c.children.length > 0;
      if (e.move === own && !scored) ownOpen = true;
      if (!scored) {
        unscored = true;
        continue;
      }
      // the lowest score for the opponent; a child he has won only when nothing else is left
      const k = c.pn === 0 ? INF : c.score;
      if (k < bestKey) {
        bestKey = k;
        best = e;
      }
    }
    // every scored reply lost while others are still open: none of them is worth storing
    if (ownOpen || (bestKey >= INF && unscored)) return undefined;
    return best;
  }

  /**
   * The move to store at `id`, given the one stored so far: `bestChild`'s answer, else `own`,
   * but no move rather than one the opponent is proven to win against.
   */
  moveToStore(id: number, own: number | null): number | null {
    const best = this.bestChild(id, own);
    if (best) return best.move;
    if (own === null) return null;
    const e = this.node(id).children.find((x) => x.move === own);
    return e !== undefined && this.node(e.child).pn === 0 ? null : own;
  }

  private solvedNode(n: PnNode): boolean {
    return n.pn === 0 || n.dn === 0 || (n.pn >= INF && n.dn >= INF);
  }

  private actionAt(n: PnNode): Action | undefined {
    if (n.inFlight) return undefined;
    if (!n.evaluated || (n.retry && n.expanded === EXPAND_NONE)) return { kind: 'evaluate', node: n.id };
    if (n.expanded === EXPAND_NONE) return { kind: 'expand', node: n.id, stage: EXPAND_NEAR };
    return undefined;
  }

  /** The open roots, most promising first (on a tie, roots not yet evaluated first). */
  private openRoots(): PnNode[] {
    return this.roots
      .map((r) => this.node(r))
      .filter((n) => !this.solvedNode(n))
      .sort((a, b) => Math.min(a.pn, a.dn) - Math.min(b.pn, b.dn) || Number(a.evaluated) - Number(b.evaluated) || a.id - b.id);
  }

  /** The next thing to do by proof numbers, or undefined when everything open is in flight. */
  select(roots: readonly PnNode[] = this.openRoots()): Action | undefined {
    const seen = new Set<number>();
    for (const r of roots) {
      const a = this.descend(r, seen);
      if (a) return a;
    }
    return undefined;
  }

  private descend(n: PnNode, seen: Set<number>): Action | undefined {
    if (seen.has(n.id)) return undefined;
    seen.add(n.id);
    const here = this.actionAt(n);
    if (here || n.inFlight) return here;
    if (n.solved !== null) return undefined;
    const open = n.children.map((e) => this.node(e.child)).filter((c) => !this.solvedNode(c));
    if (open.length === 0) {
      // every listed reply is decided but the node is not: list the rest of the moves
      if (n.expanded === EXPAND_NEAR) return { kind: 'expand', node: n.id, stage: EXPAND_FULL };
      return undefined;
    }
    open.sort((a, b) => a.dn - b.dn || a.id - b.id);
    for (const c of open) {
      const a = this.descend(c, seen);
      if (a) return a;
    }
    if (n.expanded === EXPAND_NEAR && open.every((c) => c.dn >= INF)) return { kind: 'expand', node: n.id, stage: EXPAND_FULL };
    return undefined;
  }

  /** Drop-out expansion: the open leaf with the least ply * omega + accumulated score drop. */
  selectDropOut(roots: readonly PnNode[] = this.openRoots()): Action | undefined {
    let best: Action | undefined;
    let bestPrio = Infinity;
    const prio = new Map<number, number>();
    const stack: [PnNode, number][] = roots.map((n) => [n, 0] as [PnNode, number]);
    while (stack.length > 0) {
      const [n, p] = stack.pop()!;
      const old = prio.get(n.id);
      if (old !== undefined && old <= p) continue;
      prio.set(n.id, p);
      if (p >= bestPrio) continue;
      const a = this.actionAt(n);
      if (a) {
        best = a;
        bestPrio = p;
        continue;
      }
      if (n.inFlight || n.solved !== null) continue;
      const open = n.children.map((e) => this.node(e.child)).filter((c) => !this.solvedNode(c));
      if (open.length === 0) {
        if (n.expanded === EXPAND_NEAR && p < bestPrio) {
          best = { kind: 'expand', node: n.id, stage: EXPAND_FULL };
          bestPrio = p;
        }
        continue;
      }
      let top = -Infinity;
      for (const c of open) if (c.evaluated) top = Math.max(top, -c.score);
      for (const c of open) {
        const drop = c.evaluated && top > -Infinity ? Math.max(0, top - -c.score) : 0;
        stack.push([c, p + this.omega + drop]);
      }
    }
    return best;
  }

  /** Proof numbers first; drop-out expansion when no open root is near a proof. */
  next(): Action | undefined {
    const roots = this.openRoots();
    if (roots.length === 0) return undefined;
    const m = Math.min(roots[0]!.pn, roots[0]!.dn);
    if (m >= this.provableBelow) return this.selectDropOut(roots) ?? this.select(roots);
    return this.select(roots) ?? this.selectDropOut(roots);
  }

  /** Open roots left (neither proven nor disproven). */
  openRootCount(): number {
    return this.openRoots().length;
  }
}
