/**
 * A progress bar on stderr with rate and ETA. On a terminal it redraws one line; otherwise
 * (CI, redirected output) it prints a plain line at most every `quietMs`, so logs stay short.
 */
export interface ProgressOptions {
  label: string;
  total?: number;
  unit?: string;
  stream?: NodeJS.WriteStream;
  quietMs?: number;
  /** Extra text after the counters, e.g. "proven 12". */
  extra?: () => string;
}

function fmtDuration(sec: number): string {
  if (!Number.isFinite(sec)) return '?';
  const s = Math.round(sec);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(r).padStart(2, '0')}s` : `${r}s`;
}

export class Progress {
  private done = 0;
  private readonly t0 = Date.now();
  private lastDraw = 0;
  private readonly stream: NodeJS.WriteStream;
  private readonly tty: boolean;

  constructor(private readonly o: ProgressOptions) {
    this.stream = o.stream ?? process.stderr;
    this.tty = Boolean(this.stream.isTTY);
  }

  /** `done` when the line was last drawn (-1: never): finish() does not draw the same count twice. */
  private drawnAt = -1;

  tick(n = 1): void {
    this.done += n;
    const now = Date.now();
    if (now - this.lastDraw >= (this.tty ? 100 : (this.o.quietMs ?? 5000)) || this.done === this.o.total) {
      this.lastDraw = now;
      this.draw(false);
    }
  }

  line(): string {
    const el = (Date.now() - this.t0) / 1000;
    const rate = el > 0 ? this.done / el : 0;
    const unit = this.o.unit ?? 'it';
    const total = this.o.total;
    let bar = '';
    if (total) {
      const w = 24;
      const f = Math.min(w, Math.round((this.done / total) * w));
      bar = `[${'#'.repeat(f)}${'.'.repeat(w - f)}] ${this.done}/${total} `;
    } else bar = `${this.done} `;
    const eta = total && rate > 0 ? ` eta ${fmtDuration((total - this.done) / rate)}` : '';
    const extra = this.o.extra ? ` ${this.o.extra()}` : '';
    return `${this.o.label} ${bar}${rate.toFixed(rate < 10 ? 2 : 0)} ${unit}/s elapsed ${fmtDuration(el)}${eta}${extra}`;
  }

  private draw(final: boolean): void {
    this.drawnAt = this.done;
    const text = this.line();
    if (this.tty) this.stream.write(`\r\x1b[K${text}${final ? '\n' : ''}`);
    else this.stream.write(text + '\n');
  }

  /** The last line: drawn unless the last tick already drew this count (then a terminal only needs its newline). */
  finish(): void {
    if (this.drawnAt !== this.done) this.draw(true);
    else if (this.tty) this.stream.write('\n');
  }
}
