/** Where the shipped opening book lives: `book/gomoku-book.db` in the package root. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BOOK_FILE_NAME = 'gomoku-book.db';

export function defaultBookPath(): string {
  const here = fileURLToPath(import.meta.url); // <root>/dist/book/paths.js or <root>/src/book/paths.ts
  return path.resolve(path.dirname(here), '..', '..', 'book', BOOK_FILE_NAME);
}
