/**
 * The solver's tuned values, in one place, each with a line of why. How they were measured,
 * and how to measure a change, is in docs/solver.md ("Where the values come from"); a change
 * to any of them changes the solver signature of `npm run bench`. (The engine's own stage
 * budgets for a game move are in engine.ts.)
 */

// ---- the staged solver (solver.ts): each stage's share of the nodes and time left ----------

/** The VCF stage's node cap: a VCF is found in few nodes or not at all. */
export const VCF_STAGE_NODES = 200_000;
/** Our VCT in the plain threat space: it proves most wins quickly, the wide space the rest. */
export const OWN_PLAIN_VCT_SHARE = 0.5;
/** ... in the wide space (quiet VCF threats too): the plain space is often disproven at once,
 *  and the wide space is then the only hope. */
export const OWN_WIDE_VCT_SHARE = 0.85;
/** ... with quiet twos as well: what it proves beyond the wide space it proves fast, so it
 *  comes last with a smaller share. */
export const OWN_TWOS_VCT_SHARE = 0.6;
/** The opponent's VCT (proves a loss), plain then wide: a loss proof is worth less time than
 *  a win, and most losses are shallow. */
export const OPP_PLAIN_VCT_SHARE = 0.1;
export const OPP_WIDE_VCT_SHARE = 0.3;
/** Game-tree df-pn for us (the opponent's gets what is left): it rarely proves what the
 *  threat spaces could not, so it runs last. */
export const OWN_GAME_SHARE = 0.7;
/** Proof extraction re-searches a position evicted from the tables with this budget, and
 *  may run this long past the deadline: a found proof is worth finishing. */
export const EXTRACT_NODES = 200_000;
export const EXTRACT_GRACE_MS = 2000;

// ---- df-pn (dfpn.ts) --------------------------------------------------------------------

/** The 1+epsilon trick: a child's threshold is (1 + EPS) times the second-best child's number,
 *  so df-pn does not switch between near-equal children at every step. */
export const EPS = 0.25;
/** Depth limits: threat sequences are long and narrow, game-tree lines short and wide. */
export const VCT_MAX_DEPTH = 60;
export const GAME_MAX_DEPTH = 40;
/** Game mode: the non-threat attacker moves tried at an OR node (the best by pattern value). */
export const GAME_WIDTH = 8;
/** Game mode: the threat-space proof tried at each new OR node (cheap, and it proves most
 *  leaves), and how far below the node it may go. */
export const LEAF_VCT_NODES = 300;
export const LEAF_VCT_DEPTH = 40;
/** Log2 of the entries of the threat-space tables; the game-tree and relaxed tables are 4x
 *  smaller (fewer positions, and the relaxed ones only guide). */
export const PN_TABLE_BITS = 20;
/**
 * The initial proof number of the defender node after an attacker move of each combined
 * class (C_NONE .. C_FIVE): a four leaves one reply, a four-three or double three few, a quiet
 * move many. df-pn breaks ties by list order, so these starts decide what is searched first.
 */
export const INIT_PN: readonly number[] = [6, 6, 6, 6, 2, 2, 1, 1, 1, 1];
/** ... and after a three that shares no line window with the attacker's previous move: threat
 *  sequences mostly build on their last threat, so it starts later (it is still searched). */
export const FAR_THREE_PN = 5;

// ---- the relaxed threat space and its replay (df-pn's 'vct' mode) -------------------------

/** The relaxed phase's share of a stage: its disproofs end the stage, its proofs only guide. */
export const RELAXED_SHARE = 0.5;
/** The replay (and the refinement rounds) get this share of what the relaxed phase left. */
export const REPLAY_SHARE = 0.6;
/** A relaxed search for a replay node the relaxed table does not know: small, it only has to
 *  find a move. */
export const REPLAY_RELAXED_NODES = 10_000;
/** A real search to repair one replay node where the relaxed move fails: the repairs that
 *  succeed are small, the rest would waste the budget. */
export const REPLAY_REPAIR_NODES = 500;
/** Defender replies failed replays add to the relaxed space: 2^REF_BITS nodes of up to
 *  REF_WIDTH replies (a full table takes no more; refinement rarely needs more). */
export const REF_BITS = 12;
export const REF_WIDTH = 8;

// ---- threat-space moves: the children df-pn searches ----------------------------------------

/** The VCF probes at nearly every node (the defender's before an attacker node's moves and
 *  at defender nodes, the attacker's at new attacker nodes): the VCFs they find are short, and
 *  what a tiny probe misses the search still finds through the fours among its own moves. */
export const DEFENDER_VCF_NODES = 20;
export const LEAF_VCF_NODES = 20;
/** The probes that decide whether a quiet move threatens a VCF and which defender replies
 *  stop it: a wrong "no" here loses a defence, so they get more. */
export const VCF_THREAT_PROBE_NODES = 400;
/** Quiet attacker moves (closed threes, double twos) only within this Chebyshev distance of
 *  one of his last QUIET_RECENT moves: a quiet move elsewhere rarely starts a winning threat. */
export const QUIET_NEAR = 3;
export const QUIET_RECENT = 4;
/** Quiet twos only near his last TWOS_RECENT moves (fewer nodes than 4, as many proofs), and
 *  only on a line with one of the first FOUR_CELLS cells where he can make a four (a position
 *  with more is four-rich, and the twos add little). */
export const TWOS_RECENT = 2;
export const FOUR_CELLS = 48;
/** Move-ordering value of each combined class (C_NONE .. C_FIVE) for the attacker's threats
 *  (what they take from the defender) and the game mode's positional moves. */
export const CLASS_WEIGHT: readonly number[] = [0, 4, 16, 12, 40, 120, 100, 500, 2000, 10000];
/** Game mode: positional moves within this distance of a stone, our own class weighing
 *  POSITIONAL_OWN_WEIGHT times the opponent's (attack first). */
export const POSITIONAL_NEAR = 2;
export const POSITIONAL_OWN_WEIGHT = 1.5;
/** The child-list cache: 2^GEN_BITS lists of up to GEN_WIDTH moves (longer lists are rare and
 *  cheap to make again). */
export const GEN_BITS = 17;
export const GEN_WIDTH = 40;

// ---- VCF (vcf.ts) ------------------------------------------------------------------------

/** Log2 of the VCF failure table's entries. */
export const VCF_TABLE_BITS = 18;
/** Attacker moves in one VCF line at most: the longest known freestyle VCF puzzle needs 67. */
export const VCF_MAX_DEPTH = 120;
