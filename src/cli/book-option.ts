/**
 * `--book FILE` for the commands that play (move, analyze, play): the shipped book by
 * default, `none` for no book. A missing or unreadable book means "no book" with one warning
 * on stderr, never a failure.
 */
import type { BookProbe } from '../search/types.js';
import { openBookProbe } from '../book/probe.js';
import { defaultBookPath } from '../book/paths.js';

export const BOOK_OPTION = {
  type: 'string' as const,
  requiresArg: true,
  describe: 'opening book file (default: the shipped book/gomoku-book.db; none: no book)',
};

export function openBookOption(path: string | undefined): BookProbe | undefined {
  if (path === 'none' || path === '') return undefined;
  const opened = openBookProbe(path ?? defaultBookPath(), { onWarning: (m) => process.stderr.write(`gomoku: ${m}\n`) });
  return opened?.probe;
}
