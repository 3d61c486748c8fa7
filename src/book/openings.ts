/**
 * TEMPORARY: the book's roots moved to roots.ts. This re-export exists only because
 * src/cli/commands/book-build.ts is being changed on the `queue` branch and is left
 * untouched here; when the branches meet, point its import at './roots.js' and delete this file.
 */
export * from './roots.js';
