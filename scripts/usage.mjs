// `--help` for the scripts: prints the comment block at the top of the calling script (its
// usage) and exits 0. A script calls `helpOnRequest(import.meta.url)` before reading its
// arguments, so `node scripts/X.mjs --help` never runs a benchmark or throws.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The leading comment of a script (after the shebang), without its comment markers. */
export function headerOf(source) {
  const out = [];
  const lines = source.split('\n');
  let i = lines[0]?.startsWith('#!') ? 1 : 0;
  if (lines[i]?.trim().startsWith('/**')) {
    for (i++; i < lines.length && !lines[i].trim().startsWith('*/'); i++) out.push(lines[i].replace(/^\s*\* ?/, ''));
  } else {
    for (; i < lines.length && lines[i].startsWith('//'); i++) out.push(lines[i].replace(/^\/\/ ?/, ''));
  }
  return out.join('\n').trim();
}

export function helpOnRequest(url, argv = process.argv.slice(2)) {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  process.stdout.write(`${headerOf(readFileSync(fileURLToPath(url), 'utf8'))}\n`);
  process.exit(0);
}
