#!/usr/bin/env node
/**
 * The project's regression check: the working tree's bot against the last release build,
 * at a short time control, with an SPRT stop.
 *
 *   node scripts/regression.mjs [--baseline REF] [--games 400] [--tc 100/10000]
 *       [--concurrency 2] [--sprt -10,10,0.05,0.05] [--openings FILE] [--out DIR]
 *       [--no-build] [--new "CMD"] [--base "CMD"]
 *
 * How the baseline build is obtained: REF (default: the newest tag `v*`, found with
 * `git describe --tags --abbrev=0 --match "v*"`) is resolved to a commit; its tree is
 * exported with `git archive` (the repository's worktrees and refs are not touched) into
 * `$TMPDIR/gomoku-baseline-<commit>/`, which gets a symlink to this checkout's
 * node_modules and is compiled with this checkout's TypeScript (`tsc -p`). The build is
 * cached by commit, so later runs start at once. The baseline must itself have
 * `gomoku play --protocol gomocup`.
 *
 * The working tree is compiled first (`tsc -p .`, skip with --no-build). Both bots run as
 * `node <tree>/dist/cli/main.js play --protocol gomocup`; --new / --base replace either
 * command line (e.g. to test this script with the fixture engines, or another option set).
 *
 * Openings: without --openings, `games / 2` distinct random 3-stone openings in the central
 * 7x7 square, seeded with "regression" (the same set every run, each played with both
 * colours, so no game repeats even between deterministic bots), those that a 10,000-node
 * search of the new build scores within +-100 (`gomoku match --balanced`: a pair that one
 * colour wins either way tells nothing). A file such as
 * ../shared/testdata/openings/piskvork-openings.txt (40 openings that fit 15x15) also works.
 *
 * The match itself is `gomoku match` (src/cli/commands/match.ts), imported from the
 * compiled tree, so this script does not depend on the command being registered.
 * Default SPRT: elo0 = -10, elo1 = 10 (is the new build no weaker?) — use 0,10 to
 * ask "is it stronger?". Exit status: 0 H1 accepted (or no SPRT), 1 H0 accepted (a
 * regression), 3 undecided after --games, 2 usage / setup error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function die(msg, code = 2) {
  process.stderr.write(`regression: ${msg}\n`);
  process.exit(code);
}

function parseArgs(argv) {
  const o = { games: '400', tc: '100/10000', concurrency: '2', sprt: '-10,10,0.05,0.05', build: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) die(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--baseline':
        o.baseline = val();
        break;
      case '--games':
        o.games = val();
        break;
      case '--tc':
        o.tc = val();
        break;
      case '--concurrency':
        o.concurrency = val();
        break;
      case '--sprt':
        o.sprt = val();
        break;
      case '--openings':
        o.openings = val();
        break;
      case '--out':
        o.out = val();
        break;
      case '--new':
        o.newCmd = val();
        break;
      case '--base':
        o.baseCmd = val();
        break;
      case '--no-build':
        o.build = false;
        break;
      case '--help':
      case '-h':
        process.stdout.write(readHelp());
        process.exit(0);
        break;
      default:
        die(`unknown option '${a}' (see --help)`);
    }
  }
  return o;
}

function readHelp() {
  return (
    'usage: node scripts/regression.mjs [--baseline REF] [--games N] [--tc MOVE_MS/GAME_MS] [--concurrency N]\n' +
    '         [--sprt elo0,elo1,alpha,beta] [--openings FILE] [--out DIR] [--no-build] [--new CMD] [--base CMD]\n' +
    'Plays the working tree against the last release build (see the header of this file).\n'
  );
}

function git(...args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function tsc(dir) {
  const bin = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [bin, '-p', join(dir, 'tsconfig.json')], { cwd: dir, stdio: 'inherit' });
}

/** Build (or reuse) the baseline; returns its directory. */
function baselineBuild(ref) {
  if (!ref) {
    try {
      ref = git('describe', '--tags', '--abbrev=0', '--match', 'v*');
    } catch {
      die('no release tag (v*) found; pass --baseline REF (a tag, branch or commit)');
    }
  }
  let sha;
  try {
    sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  } catch {
    die(`unknown baseline '${ref}'`);
  }
  const dir = join(tmpdir(), `gomoku-baseline-${sha.slice(0, 12)}`);
  const entry = join(dir, 'dist', 'cli', 'main.js');
  if (existsSync(entry)) {
    process.stderr.write(`regression: baseline ${ref} (${sha.slice(0, 12)}) cached in ${dir}\n`);
    return dir;
  }
  process.stderr.write(`regression: building baseline ${ref} (${sha.slice(0, 12)}) in ${dir}\n`);
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const tar = execFileSync('git', ['archive', '--format=tar', sha], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', work], { input: tar });
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  try {
    tsc(work);
  } catch {
    rmSync(work, { recursive: true, force: true });
    die(`the baseline ${ref} does not compile`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return dir;
}

const o = parseArgs(process.argv.slice(2));
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const bot = (tree) => `${q(process.execPath)} ${q(join(tree, 'dist', 'cli', 'main.js'))} play --protocol gomocup`;

if (o.build) {
  process.stderr.write('regression: building the working tree\n');
  try {
    tsc(root);
  } catch {
    die('the working tree does not compile');
  }
}
const matchJs = join(root, 'dist', 'cli', 'commands', 'match.js');
if (!existsSync(matchJs)) die(`${matchJs} is missing: build first (npx tsc -p .)`);
const newCmd = o.newCmd ?? bot(root);
const baseCmd = o.baseCmd ?? bot(baselineBuild(o.baseline));
if (o.openings && !existsSync(o.openings)) die(`no openings file at ${o.openings}`);
const out = o.out ?? join(tmpdir(), `gomoku-regression-${new Date().toISOString().replace(/[:.]/g, '-')}`);

const { runMatchCommand } = await import(pathToFileURL(matchJs).href);
process.stderr.write(`regression: new = ${newCmd}\nregression: base = ${baseCmd}\nregression: records in ${out}\n`);
const code = await runMatchCommand(
  {
    engine: [`new=${newCmd}`, `base=${baseCmd}`],
    ...(o.openings ? { openings: o.openings } : { randomOpenings: Math.ceil(Number(o.games) / 2), openingStones: 3, seed: 'regression', balanced: 100 }),
    games: Number(o.games),
    tc: o.tc,
    concurrency: Number(o.concurrency),
    sprt: o.sprt === 'none' ? undefined : o.sprt,
    out,
    json: false,
  },
  { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), tty: Boolean(process.stderr.isTTY) },
);
process.exitCode = code;
