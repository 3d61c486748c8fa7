/**
 * The messages of the web board's API (`gomoku serve`), one definition for the server
 * (src/cli/serve) and the page (web/src). Points are written in the project's notation
 * (`h8`); colours and verdicts as words. Plain types, no code.
 */

export type ColorName = 'black' | 'white';
export type Verdict = 'win' | 'loss' | 'draw' | 'unknown';

/** A position as every request gives it: the CLI's POSITION and options, and moves played after it. */
export interface PositionFields {
  position: string;
  /** A move list played after `position` (so a stone set can be followed by numbered moves). */
  then?: string;
  size?: number;
  rule?: string;
  toMove?: ColorName;
}

/** The same with every field given (what the server answers with, and what the page sends). */
export interface FullPositionFields extends PositionFields {
  then: string;
  size: number;
  rule: string;
}

/** The book on a position, from the side to move's view (a child is scored for the player who chooses it). */
export interface BookView {
  found: boolean;
  verdict?: Verdict;
  score?: number;
  depth?: number;
  bestMove?: string;
  children?: { point: string; verdict: Verdict; score: number }[];
}

/** POST /api/position: `gomoku show --json` and what the page draws. */
export interface PositionView {
  size: number;
  rule: string;
  toMove: ColorName;
  stones: { black: string[]; white: string[] };
  lastMove: string | null;
  /** The stone set the moves follow ('' for a move list). */
  setup: string;
  /** The numbered moves (the move list, or the moves after the setup). */
  moves: string[];
  /** The whole position as the CLI takes it (a move list, or a stone set with `toMove`). */
  text: string;
  /** `gomoku show --threats`: a mark per empty cell, for the side to move (mine) or the opponent. */
  marks: { point: string; text: string; tone: 'mine' | 'theirs' }[];
  /** The stones of a five (the game is over), in certificate order. */
  five: string[];
  winner: ColorName | null;
  full: boolean;
  /** null: no book, or the game is over. */
  book: BookView | null;
}

/** POST /api/sgf/import. */
export interface SgfImport {
  request: FullPositionFields;
  view: PositionView;
}

// --- the WebSocket ---------------------------------------------------------------------

export type SearchKind = 'analyse' | 'move' | 'solve' | 'swap2';
export type Swap2StepName = 'propose' | 'after-three' | 'after-five';

export type ClientMessage =
  | (PositionFields & { type: Exclude<SearchKind, 'swap2'>; id: number; timeMs?: number })
  | (PositionFields & { type: 'swap2'; id: number; step: Swap2StepName; timeMs?: number })
  | { type: 'stop' };

export interface HelloMessage {
  type: 'hello';
  version: string;
  maxTimeMs: number;
  maxSearches: number;
  book: boolean;
}

/** Progress of an analysis or an engine move: the last completed iteration, and the search since. */
export interface InfoMessage {
  type: 'info';
  id: number;
  depth: number;
  score: number;
  /** `+35`, `-120`, `win in 5` (plies), `win` (a proof of unknown length). */
  scoreText: string;
  nodes: number;
  nps: number;
  ms: number;
  pv: string[];
  /** book, vcf, defence, vct, alphabeta. */
  stage: string;
  /** True when an iteration (or the deciding stage) has just completed. */
  iteration: boolean;
}

export interface ThinkResult {
  move: string | null;
  score: number;
  scoreText: string;
  depth: number;
  nodes: number;
  ms: number;
  pv: string[];
  source: string;
  /** True when a stop (or a new request) ended it before its time. */
  stopped: boolean;
}

/** `gomoku solve --json` (a solve job's result), plus the certificate of a win or loss. */
export interface SolveResult {
  result: 'win' | 'loss' | 'unknown';
  toMove?: ColorName;
  move?: string;
  pv: string[];
  method?: string;
  nodes: number;
  ms: number;
  proofEntries?: number;
  /** true: the independent checker verified the certificate; false: it could not decide in its budget. */
  verified?: boolean;
  certificate?: string;
  /** Set when a claimed proof was rejected by the checker (a solver bug) or the input was bad. */
  error?: string;
  /** `gomoku solve --pass` (docs/formats.md section 2): how the pass-and-zone proof went. */
  pass?: PassSummary;
}

/** The pass-and-zone proof of a loser-to-move position (src/book/pass.ts), in points. */
export interface PassSummary {
  /** The winner's first move after a pass, when the pass child was proven. */
  move?: string;
  /** Cells in the root's zone (null: no zone, every reply walked). */
  zone: number | null;
  /** Replies walked at the root (the zone's empty cells and the loser's fours). */
  replies: number;
  /** Of those: refuted by the pass strategy as it stands, by it with a few entries deeper in its lines, proven on their own, left unproven. */
  byPass: number;
  repaired: number;
  proven: number;
  unproven: string[];
  /** Nodes the pass child took. */
  passNodes: number;
}

export type Swap2Result =
  | { step: 'propose'; stones: { point: string; color: ColorName }[] }
  | { step: 'after-three' | 'after-five'; choice: 'black' }
  | { step: 'after-three' | 'after-five'; choice: 'white'; move: string }
  | { step: 'after-three'; choice: 'add2'; stones: { point: string; color: ColorName }[] };

export type ResultBody = ({ kind: 'analyse' | 'move' } & ThinkResult) | ({ kind: 'solve' } & SolveResult) | ({ kind: 'swap2' } & Swap2Result);

export type ResultMessage = { type: 'result'; id: number } & ResultBody;

export type ServerMessage =
  HelloMessage | InfoMessage | ResultMessage | { type: 'error'; id: number | null; error: string } | { type: 'cancelled'; id: number };
