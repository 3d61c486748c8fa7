/**
 * The analysis board page. The position is a stone set (maybe empty) and the numbered moves
 * after it; the server answers every question about it (legality, side to move, threats,
 * the book, searches). The page itself only draws (the shared renderer), places a clicked
 * stone at once for feedback, and runs the Swap2 dialogue.
 */
import { geometry, renderBoardSvg, stoneSvg, type Mark, type Picture } from '../../src/view/board-svg.js';
import { makeMoveList, makeStoneSet, parsePoint } from '../../src/core/notation.js';
import {
  api,
  ApiError,
  SearchSocket,
  type ColorName,
  type PositionFields,
  type PositionView,
  type ServerMessage,
  type SolveResult,
  type Swap2Result,
} from './api.js';

type Color = 1 | 2;
const BLACK: Color = 1;
const WHITE: Color = 2;
const colorOf = (n: ColorName): Color => (n === 'black' ? BLACK : WHITE);
const nameOf = (c: Color): ColorName => (c === BLACK ? 'black' : 'white');
const other = (c: Color): Color => (3 - c) as Color;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const el = {
  board: $('board'),
  status: $('status'),
  error: $('error'),
  conn: $('conn'),
  undo: $<HTMLButtonElement>('undo'),
  redo: $<HTMLButtonElement>('redo'),
  newGame: $<HTMLButtonElement>('new'),
  numbers: $<HTMLInputElement>('numbers'),
  analyse: $<HTMLButtonElement>('analyse'),
  showLine: $<HTMLInputElement>('showline'),
  aDepth: $('a-depth'),
  aScore: $('a-score'),
  aNps: $('a-nps'),
  aNodes: $('a-nodes'),
  aTime: $('a-time'),
  aStage: $('a-stage'),
  aPv: $('a-pv'),
  solve: $<HTMLButtonElement>('solve'),
  solveTime: $<HTMLSelectElement>('solve-time'),
  sResult: $('s-result'),
  sPv: $('s-pv'),
  sDetail: $('s-detail'),
  sCert: $<HTMLAnchorElement>('s-cert'),
  threats: $<HTMLInputElement>('threats'),
  book: $<HTMLInputElement>('book'),
  bookMove: $<HTMLButtonElement>('bookmove'),
  bookInfo: $('book-info'),
  legend: $('legend'),
  engineSide: $<HTMLSelectElement>('engine-side'),
  moveTime: $<HTMLSelectElement>('move-time'),
  engineMove: $<HTMLButtonElement>('engine-move'),
  swap2Engine: $<HTMLButtonElement>('swap2-engine'),
  swap2Me: $<HTMLButtonElement>('swap2-me'),
  swap2Info: $('swap2-info'),
  swap2Choices: $('swap2-choices'),
  size: $<HTMLSelectElement>('size'),
  rule: $<HTMLSelectElement>('rule'),
  toMove: $<HTMLSelectElement>('tomove'),
  posText: $<HTMLTextAreaElement>('postext'),
  load: $<HTMLButtonElement>('load'),
  copyLink: $<HTMLButtonElement>('copylink'),
  sgfExport: $<HTMLButtonElement>('sgf-export'),
  sgfImport: $<HTMLInputElement>('sgf-import'),
  posInfo: $('pos-info'),
};

/**
 * Swap2 (as in the protocols): the proposer puts three stones (black, white, black); the
 * chooser takes black, takes white and plays the fourth stone, or adds a white and a black
 * stone and lets the proposer choose the colour (taking white means playing the sixth stone).
 */
type Swap2 = { stage: 'user-places-3' } | { stage: 'user-chooses-3' } | { stage: 'user-adds-2' } | { stage: 'user-chooses-5' } | { stage: 'engine-decides' };

const st = {
  size: 15,
  rule: 'freestyle',
  /** The stone set the moves follow (unnumbered; empty for a plain move list). */
  setup: [] as { index: number; color: Color }[],
  /** Who moves first after the setup. */
  baseToMove: BLACK as Color,
  moves: [] as number[],
  redo: [] as number[],
  view: undefined as PositionView | undefined,
  viewKey: '',
  viewSeq: 0,
  analysing: false,
  analysisId: -1,
  /** The line drawn on the board (the analysis' or the solver's) and the position it belongs to. */
  line: undefined as { key: string; pv: string[] } | undefined,
  /** The position the running analysis or engine move is for. */
  infoKey: '',
  solveId: -1,
  solveKey: '',
  solveTimer: 0,
  moveId: -1,
  swap2Id: -1,
  swap2: undefined as Swap2 | undefined,
  maxTimeMs: 120_000,
  hello: false,
};

const idx = (p: string): number => {
  const r = parsePoint(p, st.size);
  return r.ok ? r.value : -1;
};
const moveColor = (i: number): Color => (i % 2 === 0 ? st.baseToMove : other(st.baseToMove));
const toMoveNow = (): Color => moveColor(st.moves.length);
const occupied = (q: number) => st.setup.some((s) => s.index === q) || st.moves.includes(q);

function fields(): PositionFields {
  if (st.setup.length === 0) return { position: makeMoveList(st.moves, st.size), then: '', size: st.size, rule: st.rule };
  const black = st.setup.filter((s) => s.color === BLACK).map((s) => s.index);
  const white = st.setup.filter((s) => s.color === WHITE).map((s) => s.index);
  return { position: makeStoneSet(black, white, st.size), then: makeMoveList(st.moves, st.size), size: st.size, rule: st.rule, toMove: nameOf(st.baseToMove) };
}
const keyOf = (f: PositionFields) => JSON.stringify(f);
const currentKey = () => keyOf(fields());

// --- drawing ----------------------------------------------------------------------

function bookMark(verdict: string, score: number): { text: string; tone: Mark['tone'] } {
  if (verdict === 'win') return { text: 'W', tone: 'win' };
  if (verdict === 'loss') return { text: 'L', tone: 'loss' };
  if (verdict === 'draw') return { text: 'D', tone: 'draw' };
  const a = Math.abs(score);
  const t = a >= 1000 ? `${Math.round(a / 1000)}k` : String(a);
  return { text: (score > 0 ? '+' : score < 0 ? '-' : '') + t, tone: 'score' };
}

function render(): void {
  const size = st.size;
  const stones = [...st.setup, ...st.moves.map((q, i) => ({ index: q, color: moveColor(i) }))];
  const pic: Picture = { size, stones, numbers: el.numbers.checked, numberFrom: st.setup.length };
  if (st.moves.length > 0) pic.lastMove = st.moves[st.moves.length - 1]!;
  const v = st.viewKey === currentKey() ? st.view : undefined;
  const marks = new Map<number, Mark>();
  if (v) {
    if (el.threats.checked) for (const m of v.marks) marks.set(idx(m.point), { index: idx(m.point), text: m.text, tone: m.tone });
    if (el.book.checked && v.book?.found) {
      for (const c of v.book.children ?? []) {
        const q = idx(c.point);
        const m = bookMark(c.verdict, c.score);
        marks.set(q, { index: q, text: m.text, tone: c.point === v.book.bestMove ? 'best' : m.tone });
      }
    }
    pic.ring = v.five.map(idx);
  }
  pic.marks = [...marks.values()];
  if (el.showLine.checked && st.line && st.line.key === currentKey() && st.line.pv.length > 0) {
    pic.line = st.line.pv.map(idx).filter((q) => q >= 0 && !occupied(q));
    pic.lineFirst = toMoveNow();
  }
  el.board.innerHTML = renderBoardSvg(pic);
  el.undo.disabled = st.moves.length === 0;
  el.redo.disabled = st.redo.length === 0;
}

function showStatus(): void {
  const v = st.viewKey === currentKey() ? st.view : undefined;
  const n = st.setup.length + st.moves.length;
  if (!v) {
    el.status.textContent = `${nameOf(toMoveNow())} to move · ${n} stone${n === 1 ? '' : 's'}`;
    return;
  }
  let s: string;
  if (v.winner) s = `${v.winner} wins: five through ${v.five.join(' ')}`;
  else if (v.full) s = 'the board is full: a draw';
  else s = `${v.toMove} to move · ${n} stone${n === 1 ? '' : 's'}${v.lastMove ? ` · last ${v.lastMove}` : ''}`;
  const side = el.engineSide.value;
  if (side !== 'none' && !v.winner && !v.full) s += v.toMove === side ? ' · engine to play' : ' · your move';
  el.status.textContent = s;
  el.posText.value = v.text;
  el.toMove.value = st.setup.length > 0 ? nameOf(st.baseToMove) : '';
  el.posInfo.textContent = `${v.size}x${v.size}, ${v.rule}${v.setup ? `; setup ${v.setup}, then ${v.moves.length} move${v.moves.length === 1 ? '' : 's'}` : ''}`;
  const b = v.book;
  if (!el.book.checked) el.bookInfo.textContent = '';
  else if (b === null) el.bookInfo.textContent = v.winner ? '' : 'no book (the server was started with --book none)';
  else if (!b.found) el.bookInfo.textContent = 'not in the book';
  else {
    const verdict = b.verdict === 'unknown' ? `score ${b.score}` : `${b.verdict} for ${v.toMove}`;
    const n = b.children?.length ?? 0;
    el.bookInfo.textContent = `book: ${verdict}, depth ${b.depth}${b.bestMove ? `, best ${b.bestMove}` : ''}; ${n === 0 ? 'no moves stored' : `${n} moves marked (W win, L loss, D draw, else the score, for ${v.toMove})`}`;
  }
  el.bookMove.disabled = !(b?.found && b.bestMove);
}

function showError(msg: string): void {
  el.error.textContent = msg;
}

function legend(): void {
  const parts: string[] = [];
  if (el.threats.checked)
    parts.push(
      'threats: <span class="mine">5 4 f 3</span> for the side to move, <span class="theirs">* # + ~</span> for the opponent (five, open four, four, open three)',
    );
  if (el.book.checked)
    parts.push(
      'book: <span class="win">W</span>/<span class="loss">L</span> a proven win/loss for the side to move, numbers are scores; the thick ring is the book move; click one to follow the book',
    );
  el.legend.innerHTML = parts.join('<br>');
}

function updateUrl(): void {
  const f = fields();
  const q = new URLSearchParams();
  if (f.size !== 15) q.set('size', String(f.size));
  if (f.rule !== 'freestyle') q.set('rule', f.rule);
  if (f.position) q.set('p', f.position);
  if (f.then) q.set('then', f.then);
  if (f.toMove) q.set('to', f.toMove);
  const s = q.toString();
  history.replaceState(null, '', s ? `?${s}` : location.pathname);
}

// --- the position changes ------------------------------------------------------------

/** Ask the server about the current position; when the answer comes, redraw and go on. */
async function refresh(): Promise<void> {
  const f = fields();
  const key = keyOf(f);
  const seq = ++st.viewSeq;
  try {
    const v = await api.position(f);
    if (seq !== st.viewSeq) return;
    st.view = v;
    st.viewKey = key;
    showError('');
    render();
    showStatus();
    afterView(v);
  } catch (e) {
    if (seq !== st.viewSeq) return;
    render();
    showError(e instanceof Error ? e.message : String(e));
  }
}

function positionChanged(): void {
  st.line = undefined;
  render();
  setTimeout(afterChange, 0);
}

/** Everything but drawing, after the frame that shows the change. */
function afterChange(): void {
  clearSolve();
  showStatus();
  updateUrl();
  if (st.analysing) startAnalysis();
  void refresh();
}

/** After the server's answer: the engine's turn in a game, and the Swap2 steps. */
function afterView(v: PositionView): void {
  if (!st.hello) return;
  document.body.dataset.ready = '1';
  if (v.winner || v.full) {
    if (st.analysing) stopAnalysis();
    return;
  }
  const sw = st.swap2;
  if (sw?.stage === 'user-places-3' && st.moves.length === 3) return swap2Ask('after-three');
  if (sw?.stage === 'user-adds-2' && st.moves.length === 5) return swap2Ask('after-five');
  if (sw) return;
  if (el.engineSide.value === v.toMove && st.moveId < 0) engineMove();
}

function play(q: number): void {
  st.moves.push(q);
  st.redo = [];
  positionChanged();
}

/**
 * A click's answer: the stone goes onto the board as it is (the old marks and line go), and
 * the whole board is redrawn when the server has answered for the new position.
 */
function playClicked(q: number): void {
  const svg = el.board.querySelector('svg');
  if (!svg) return play(q);
  st.moves.push(q);
  st.redo = [];
  st.line = undefined;
  for (const n of svg.querySelectorAll('.mark, .line, .ring, .last')) {
    if (n.classList.contains('num')) {
      n.setAttribute('fill', n.getAttribute('data-fill')!);
      n.classList.remove('last');
    } else n.remove();
  }
  const i = st.moves.length - 1;
  svg.insertAdjacentHTML('beforeend', stoneSvg(st.size, { index: q, color: moveColor(i) }, { number: el.numbers.checked ? i + 1 : undefined, last: true }));
  el.undo.disabled = false;
  el.redo.disabled = true;
  requestAnimationFrame(() => setTimeout(afterChange, 0));
}

function loadState(f: PositionFields, v: PositionView): void {
  st.size = f.size;
  st.rule = f.rule;
  el.size.value = String(f.size);
  el.rule.value = f.rule;
  const moves = v.moves.map((p) => parsePoint(p, f.size)).map((r) => (r.ok ? r.value : -1));
  const inMoves = new Set(moves);
  const setup: { index: number; color: Color }[] = [];
  if (v.setup) {
    for (const [name, c] of [
      ['black', BLACK],
      ['white', WHITE],
    ] as const) {
      for (const p of v.stones[name]) {
        const r = parsePoint(p, f.size);
        if (r.ok && !inMoves.has(r.value)) setup.push({ index: r.value, color: c });
      }
    }
  }
  st.setup = setup;
  st.moves = moves;
  st.redo = [];
  const to = colorOf(v.toMove);
  st.baseToMove = moves.length % 2 === 0 ? to : other(to);
  cancelSearches();
  st.swap2 = undefined;
  showSwap2();
  positionChanged();
}

async function loadFields(f: PositionFields, orEmpty = false): Promise<void> {
  try {
    const v = await api.position(f);
    loadState(f, v);
  } catch (e) {
    showError(e instanceof ApiError ? e.message : String(e));
    if (orEmpty) newBoard(15);
  }
}

function newBoard(size = st.size): void {
  cancelSearches();
  st.size = size;
  el.size.value = String(size);
  st.setup = [];
  st.moves = [];
  st.redo = [];
  st.baseToMove = BLACK;
  st.swap2 = undefined;
  showSwap2();
  positionChanged();
}

// --- searches ------------------------------------------------------------------------

const socket = new SearchSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);

function cancelSearches(): void {
  if (st.analysisId >= 0 || st.solveId >= 0 || st.moveId >= 0 || st.swap2Id >= 0) socket.stop();
  st.analysisId = st.solveId = st.moveId = st.swap2Id = -1;
  if (st.analysing) setAnalysing(false);
  el.board.classList.remove('busy');
}

function setAnalysing(on: boolean): void {
  st.analysing = on;
  el.analyse.textContent = on ? 'Stop analysis' : 'Start analysis';
  el.analyse.classList.toggle('running', on);
}

function startAnalysis(): void {
  if (!st.analysing) setAnalysing(true);
  const f = fields();
  st.infoKey = keyOf(f);
  st.analysisId = socket.send({ type: 'analyse', ...f });
  el.aStage.textContent = 'starting';
}

function stopAnalysis(): void {
  setAnalysing(false);
  if (st.analysisId >= 0) socket.stop();
}

/** Draw a line (when it is for the position on the board, and lines are shown). */
function setLine(pv: string[], key: string): void {
  if (key !== currentKey()) return;
  st.line = { key, pv };
  if (el.showLine.checked) render();
}

function showInfo(m: { depth: number; scoreText: string; nps?: number; nodes: number; ms: number; pv: string[]; stage?: string }): void {
  el.aDepth.textContent = String(m.depth);
  el.aScore.textContent = m.scoreText;
  if (m.nps !== undefined) el.aNps.textContent = m.nps.toLocaleString('en');
  el.aNodes.textContent = m.nodes.toLocaleString('en');
  el.aTime.textContent = `${(m.ms / 1000).toFixed(1)} s`;
  if (m.stage !== undefined) el.aStage.textContent = m.stage;
  el.aPv.textContent = m.pv.join(' ') || '–';
}

function clearSolve(): void {
  if (st.solveId >= 0) socket.stop();
  st.solveId = -1;
  clearInterval(st.solveTimer);
  el.solve.textContent = 'Solve';
  el.solve.classList.remove('running');
  el.sResult.textContent = '–';
  el.sPv.textContent = '–';
  el.sDetail.textContent = '';
  el.sCert.hidden = true;
}

function startSolve(): void {
  clearSolve();
  const timeMs = Math.min(Number(el.solveTime.value), st.maxTimeMs);
  st.solveKey = currentKey();
  st.solveId = socket.send({ type: 'solve', ...fields(), timeMs });
  const t0 = performance.now();
  el.solve.textContent = 'Stop';
  el.solve.classList.add('running');
  el.sResult.textContent = 'solving…';
  st.solveTimer = window.setInterval(() => (el.sDetail.textContent = `${((performance.now() - t0) / 1000).toFixed(1)} s of ${timeMs / 1000} s`), 200);
}

function showSolve(r: SolveResult): void {
  clearInterval(st.solveTimer);
  st.solveId = -1;
  el.solve.textContent = 'Solve';
  el.solve.classList.remove('running');
  el.sResult.textContent = r.result === 'unknown' ? 'unknown' : `${r.result} for ${r.toMove ?? ''}${r.move ? ` by ${r.move}` : ''} (${r.method ?? ''})`;
  if (r.verified === true) {
    const b = document.createElement('span');
    b.className = 'verified';
    b.textContent = 'verified';
    b.title = 'the independent checker accepted the certificate';
    el.sResult.append(' ', b);
  }
  el.sPv.textContent = r.pv.join(' ') || '–';
  el.sDetail.textContent = `${r.nodes.toLocaleString('en')} nodes, ${r.ms} ms${r.proofEntries !== undefined ? `, ${r.proofEntries} proof entries` : ''}${r.error ? `; ${r.error}` : ''}`;
  if (r.certificate !== undefined) {
    if (el.sCert.href) URL.revokeObjectURL(el.sCert.href);
    el.sCert.href = URL.createObjectURL(new Blob([r.certificate], { type: 'text/plain' }));
    el.sCert.hidden = false;
  }
}

function engineMove(): void {
  if (st.analysisId >= 0) st.analysisId = -1; // the move replaces the analysis; it resumes after
  st.moveId = socket.send({ type: 'move', ...fields(), timeMs: Math.min(Number(el.moveTime.value), st.maxTimeMs) });
  st.infoKey = currentKey();
  el.board.classList.add('busy');
  el.aStage.textContent = 'engine thinking';
}

function onMessage(m: ServerMessage): void {
  if (m.type === 'hello') {
    st.hello = true;
    st.maxTimeMs = m.maxTimeMs;
    el.conn.textContent = `engine ready (v${m.version})`;
    if (st.view && st.viewKey === currentKey()) afterView(st.view);
    return;
  }
  if (m.type === 'info') {
    if (m.id !== st.analysisId && m.id !== st.moveId) return;
    showInfo(m);
    if (m.id === st.analysisId && m.iteration) setLine(m.pv, st.infoKey);
    return;
  }
  if (m.type === 'error' || m.type === 'cancelled') {
    const id = m.id;
    if (m.type === 'error') {
      if (id === st.analysisId) el.aStage.textContent = m.error;
      else if (id === st.solveId) {
        showSolve({ result: 'unknown', pv: [], nodes: 0, ms: 0 });
        el.sResult.textContent = m.error;
      } else showError(m.error);
    }
    if (id === st.moveId) {
      st.moveId = -1;
      el.board.classList.remove('busy');
    }
    if (id === st.swap2Id) st.swap2Id = -1;
    if (id === st.solveId && m.type === 'cancelled') clearSolve();
    return;
  }
  // results
  const r = m;
  if (r.kind === 'analyse' && r.id === st.analysisId) {
    showInfo({ depth: r.depth, scoreText: r.scoreText, nodes: r.nodes, ms: r.ms, pv: r.pv, stage: `done (${r.source}): ${r.move ?? 'no move'}` });
    setLine(r.pv, st.infoKey);
    st.analysisId = -1;
    if (st.analysing) setAnalysing(false);
  } else if (r.kind === 'solve' && r.id === st.solveId) {
    showSolve(r);
    if (!st.analysing && r.pv.length > 0) setLine(r.pv, st.solveKey);
  } else if (r.kind === 'move' && r.id === st.moveId) {
    st.moveId = -1;
    el.board.classList.remove('busy');
    const q = r.move !== null ? idx(r.move) : -1;
    if (q >= 0 && st.infoKey === currentKey() && !occupied(q)) {
      el.aStage.textContent = `engine played ${r.move} (${r.source})`;
      play(q);
    }
  } else if (r.kind === 'swap2' && r.id === st.swap2Id) {
    st.swap2Id = -1;
    swap2Answer(r);
  }
}

socket.onMessage = onMessage;
socket.onState = (open) => {
  el.conn.textContent = open ? 'connected' : 'disconnected: retrying';
  el.conn.className = `conn ${open ? 'ok' : 'bad'}`;
  if (!open) {
    st.hello = false;
    st.analysisId = st.solveId = st.moveId = st.swap2Id = -1;
    el.board.classList.remove('busy');
  }
};

// --- Swap2 ---------------------------------------------------------------------------

function showSwap2(text = '', choices: [string, () => void][] = []): void {
  el.swap2Info.textContent = text;
  el.swap2Choices.replaceChildren(
    ...choices.map(([label, f]) => {
      const b = document.createElement('button');
      b.textContent = label;
      b.addEventListener('click', f);
      return b;
    }),
  );
}

function swap2Ask(step: 'propose' | 'after-three' | 'after-five'): void {
  st.swap2 = { stage: 'engine-decides' };
  showSwap2(step === 'propose' ? 'the engine is placing three stones…' : 'the engine is choosing…');
  st.swap2Id = socket.send({ type: 'swap2', step, ...fields(), timeMs: Math.min(Number(el.moveTime.value) * 2, st.maxTimeMs) });
}

/** The game goes on: the engine plays `engine`, the user the other colour. */
function swap2Done(engine: ColorName, text: string): void {
  st.swap2 = undefined;
  el.engineSide.value = engine;
  showSwap2(`${text} You play ${engine === 'black' ? 'white' : 'black'}.`);
  showStatus();
  if (st.view && st.viewKey === currentKey()) afterView(st.view);
}

function swap2Answer(r: Swap2Result): void {
  const place = (stones: { point: string }[]) => {
    for (const s of stones) st.moves.push(idx(s.point));
    st.redo = [];
    positionChanged();
  };
  const engineTakesWhite = (move: string) => {
    st.moves.push(idx(move));
    positionChanged();
    swap2Done('white', `The engine takes white and plays ${move}.`);
  };
  if (r.step === 'propose') {
    place(r.stones);
    st.swap2 = { stage: 'user-chooses-3' };
    showSwap2('The engine proposes these three stones. Choose:', [
      ['Take black', () => swap2Done('white', 'You took black.')],
      ['Take white (play stone 4)', () => swap2Done('black', 'You took white: play the fourth stone.')],
      [
        'Add two stones',
        () => {
          st.swap2 = { stage: 'user-adds-2' };
          showSwap2('Place a white and then a black stone; the engine then chooses its colour.');
        },
      ],
    ]);
  } else if (r.choice === 'black') swap2Done('black', 'The engine takes black.');
  else if (r.choice === 'white') engineTakesWhite(r.move);
  else {
    place(r.stones);
    st.swap2 = { stage: 'user-chooses-5' };
    showSwap2('The engine adds two stones. Choose your colour:', [
      ['Take black', () => swap2Done('white', 'You took black.')],
      ['Take white (play stone 6)', () => swap2Done('black', 'You took white: play the sixth stone.')],
    ]);
  }
}

function startSwap2(engineProposes: boolean): void {
  el.engineSide.value = 'none';
  if (st.analysing) stopAnalysis();
  newBoard();
  if (engineProposes) swap2Ask('propose');
  else {
    st.swap2 = { stage: 'user-places-3' };
    showSwap2('Place three stones (black, white, black); the engine then chooses.');
  }
}

/** May the user put a stone now? (Not while the engine thinks or a Swap2 choice is due.) */
function userMayPlay(): boolean {
  const sw = st.swap2;
  if (sw && (sw.stage === 'engine-decides' || sw.stage === 'user-chooses-3' || sw.stage === 'user-chooses-5')) return false;
  if (sw?.stage === 'user-places-3' && st.moves.length >= 3) return false;
  if (sw?.stage === 'user-adds-2' && st.moves.length >= 5) return false;
  if (st.moveId >= 0) return false;
  if (!sw && el.engineSide.value === nameOf(toMoveNow())) return false;
  const v = st.viewKey === currentKey() ? st.view : undefined;
  return !(v && (v.winner || v.full));
}

// --- wiring --------------------------------------------------------------------------

el.board.addEventListener('pointerdown', (e) => {
  if (e.button !== 0) return;
  const svg = el.board.querySelector('svg');
  if (!svg) return;
  const rect = svg.getBoundingClientRect();
  const g = geometry(st.size);
  const k = g.width / rect.width;
  const q = g.cellAt((e.clientX - rect.left) * k, (e.clientY - rect.top) * k);
  if (q < 0 || occupied(q) || !userMayPlay()) return;
  const t0 = e.timeStamp;
  playClicked(q);
  // time from the click to the frame that shows the stone (the page's answer to a click)
  requestAnimationFrame(() => setTimeout(() => (document.body.dataset.clickMs = (performance.now() - t0).toFixed(1)), 0));
});

/** Undo and redo leave a game's engine waiting: in a game, undo goes back to the user's turn. */
function stopEngineTurn(): void {
  if (st.moveId >= 0 || st.swap2Id >= 0) socket.stop();
  st.moveId = st.swap2Id = -1;
  el.board.classList.remove('busy');
  if (st.swap2) {
    st.swap2 = undefined;
    showSwap2();
  }
}
el.undo.addEventListener('click', () => {
  if (st.moves.length === 0) return;
  stopEngineTurn();
  st.redo.push(st.moves.pop()!);
  if (el.engineSide.value === nameOf(toMoveNow()) && st.moves.length > 0) st.redo.push(st.moves.pop()!);
  positionChanged();
});
el.redo.addEventListener('click', () => {
  const q = st.redo.pop();
  if (q === undefined || occupied(q)) return;
  stopEngineTurn();
  st.moves.push(q);
  positionChanged();
});
el.newGame.addEventListener('click', () => newBoard());
el.numbers.addEventListener('change', render);
el.showLine.addEventListener('change', render);
el.threats.addEventListener('change', () => {
  render();
  legend();
});
el.book.addEventListener('change', () => {
  render();
  legend();
  showStatus();
});
el.bookMove.addEventListener('click', () => {
  const b = st.view?.book;
  if (st.viewKey === currentKey() && b?.bestMove && userMayPlay()) play(idx(b.bestMove));
});
el.analyse.addEventListener('click', () => (st.analysing ? stopAnalysis() : startAnalysis()));
el.solve.addEventListener('click', () => (st.solveId >= 0 ? clearSolve() : startSolve()));
el.engineMove.addEventListener('click', () => {
  if (st.moveId < 0 && !st.swap2) engineMove();
});
el.engineSide.addEventListener('change', () => {
  showStatus();
  if (st.view && st.viewKey === currentKey()) afterView(st.view);
});
el.swap2Engine.addEventListener('click', () => startSwap2(true));
el.swap2Me.addEventListener('click', () => startSwap2(false));
for (let n = 5; n <= 22; n++) el.size.add(new Option(`${n}x${n}`, String(n), n === 15, n === 15));
el.size.addEventListener('change', () => newBoard(Number(el.size.value)));
el.rule.addEventListener('change', () => {
  st.rule = el.rule.value;
  positionChanged();
});
el.load.addEventListener('click', () => {
  const text = el.posText.value.trim();
  if (text.startsWith('(')) return void importSgf(text);
  const f: PositionFields = { position: text, then: '', size: st.size, rule: st.rule };
  if (el.toMove.value) f.toMove = el.toMove.value as ColorName;
  void loadFields(f);
});
el.copyLink.addEventListener('click', () => {
  const done = () => (el.posInfo.textContent = `link copied: ${location.href}`);
  navigator.clipboard?.writeText(location.href).then(done, () => (el.posInfo.textContent = location.href));
});
el.sgfExport.addEventListener('click', async () => {
  try {
    const { sgf } = await api.sgfExport(fields());
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([sgf], { type: 'application/x-go-sgf' }));
    a.download = 'gomoku.sgf';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  } catch (e) {
    showError(String(e instanceof Error ? e.message : e));
  }
});
async function importSgf(text: string): Promise<void> {
  try {
    const r = await api.sgfImport(text);
    loadState(r.request, r.view);
  } catch (e) {
    showError(String(e instanceof Error ? e.message : e));
  }
}
el.sgfImport.addEventListener('change', async () => {
  const f = el.sgfImport.files?.[0];
  if (f) await importSgf(await f.text());
  el.sgfImport.value = '';
});
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === 'ArrowLeft') el.undo.click();
  else if (e.key === 'ArrowRight') el.redo.click();
});

// the position in the link
{
  const q = new URLSearchParams(location.search);
  legend();
  const size = Number(q.get('size') ?? 15);
  const f: PositionFields = {
    position: q.get('p') ?? '',
    then: q.get('then') ?? '',
    size: Number.isInteger(size) ? size : 15,
    rule: q.get('rule') ?? 'freestyle',
  };
  const to = q.get('to');
  if (to === 'black' || to === 'white') f.toMove = to;
  render();
  if (f.position || f.then || f.size !== 15 || f.rule !== 'freestyle') void loadFields(f, true);
  else positionChanged();
}
