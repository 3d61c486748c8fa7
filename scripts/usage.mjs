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

/**
 * Options given as `--name value` pairs, each one of `names`: anything else is one line on
 * stderr naming `script`, and exit 2. Returns `opt(name, fallback)`.
 */
export function pairedOptions(script, names, args = process.argv.slice(2)) {
  const known = new Set(names);
  for (let i = 0; i < args.length; i += 2) {
    if (!known.has(args[i]) || args[i + 1] === undefined) {
      console.error(`${script}: ${known.has(args[i]) ? `option '${args[i]}' needs a value` : `Unknown option '${args[i]}'`} (see --help)`);
      process.exit(2);
    }
  }
  return (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
}

/**
 * A script's arguments read by `spec`: option name -> 'string', 'int' (a positive integer),
 * 'ints' (a comma list of them) or 'flag'. Any other `--x` is an unknown option; other words
 * are positionals. A bad argument is one line on stderr naming `script`, and exit 2 (`die`
 * does the same for the script's own checks).
 */
export function readOptions(script, spec, args = process.argv.slice(2)) {
  const die = (msg) => {
    process.stderr.write(`${script}: ${msg} (see --help)\n`);
    process.exit(2);
  };
  const opts = {};
  const positionals = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const kind = spec[a];
    if (kind === undefined) {
      if (a.startsWith('--')) die(`Unknown option '${a}'`);
      positionals.push(a);
    } else if (kind === 'flag') opts[a] = true;
    else {
      if (i + 1 >= args.length) die(`${a} needs a value`);
      const v = args[++i];
      const int = (x) => {
        const n = Number(x);
        if (!Number.isInteger(n) || n <= 0) die(`${a} must be a positive integer, got '${x}'`);
        return n;
      };
      opts[a] = kind === 'int' ? int(v) : kind === 'ints' ? v.split(',').map(int) : v;
    }
  }
  return { opts, positionals, die };
}
