#!/usr/bin/env node
// The lint rule for the architecture (../shared/docs/architecture.md, "Principles" 1):
//
//   core <- search <- proof <- {book, protocols, match} <- workers <- cli
//   core <- view (the board picture and the web API's message types, shared by the CLI,
//   the server and the web page)
//
// (proof sits below book: the book writes certificates and checks them with the checker)
//
// - a file may import its own directory and lower layers only (no upward or sideways imports);
// - core and search are pure: no Node built-ins, no native/process-level packages, no
//   console, no process;
// - yargs only in cli; nothing under src/ imports scripts/ or test/;
// - the web page (web/src) imports only src/view and core's notation from src/.
// Usage: node scripts/check-deps.mjs [package-root]. Prints `file:line: problem` for each violation and exits 1; exits 0 when clean.
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const src = join(root, 'src');

const LAYER = { core: 0, search: 1, view: 1, proof: 2, book: 3, protocols: 3, match: 3, workers: 4, cli: 5 };
const PURE = new Set(['core', 'search', 'view']);
const IMPURE_PACKAGES = new Set(['better-sqlite3', 'piscina', 'yargs']);
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

const files = [];
const walk = (d) => {
  for (const f of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, f.name);
    if (f.isDirectory()) walk(p);
    else if (/\.(ts|mts|js|mjs)$/.test(f.name) && !f.name.endsWith('.d.ts')) files.push(p);
  }
};
walk(src);

const problems = [];
const lineOf = (text, index) => text.slice(0, index).split('\n').length;
/** Code without comments and string contents, same length, so indices and lines still match. */
const codeOnly = (text) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/\/\/[^\n]*/g, (m) => ' '.repeat(m.length))
    .replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, (m) => m[0] + ' '.repeat(m.length - 2) + m[0]);

for (const file of files) {
  const rel = relative(root, file);
  const dir = relative(src, file).split(sep)[0];
  if (!(dir in LAYER)) {
    problems.push(`${rel}:1: src/${dir}/ has no layer (add it to LAYER in scripts/check-deps.mjs)`);
    continue;
  }
  const text = readFileSync(file, 'utf8');
  const importRe = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    const at = `${rel}:${lineOf(text, m.index + Math.max(0, m[0].search(/import|export/)))}`;
    if (spec.startsWith('.')) {
      const target = relative(root, resolve(dirname(file), spec));
      if (!target.startsWith(`src${sep}`)) {
        problems.push(`${at}: imports ${spec} outside src/`);
        continue;
      }
      const to = target.split(sep)[1];
      if (to === dir) continue;
      if (!(to in LAYER)) problems.push(`${at}: imports src/${to}/, which has no layer`);
      else if (LAYER[to] >= LAYER[dir]) problems.push(`${at}: ${dir} may not import ${to} (${spec}): dependencies point down: core <- search <- proof <- {book, protocols, match} <- workers <- cli`);
    } else {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (PURE.has(dir) && (builtins.has(spec) || builtins.has(pkg) || IMPURE_PACKAGES.has(pkg))) problems.push(`${at}: ${dir} is pure and may not import ${spec}`);
      if (pkg === 'yargs' && dir !== 'cli') problems.push(`${at}: yargs belongs to cli only`);
    }
  }
  if (PURE.has(dir)) {
    const code = codeOnly(text);
    for (const m of code.matchAll(/\b(console|process)\s*\./g)) problems.push(`${rel}:${lineOf(code, m.index)}: ${dir} is pure and may not use ${m[1]}`);
  }
}

// The web page (web/src, bundled by vite) may use the pure shared code only: src/view and
// core's notation. Every rule question goes to the server.
const web = join(root, 'web', 'src');
const webFiles = [];
try {
  for (const f of readdirSync(web, { recursive: true })) if (/\.(ts|mts|js|mjs)$/.test(String(f))) webFiles.push(join(web, String(f)));
} catch {
  // no page in this tree
}
for (const file of webFiles) {
  const rel = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const importRe = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    const at = `${rel}:${lineOf(text, m.index)}`;
    if (!spec.startsWith('.')) {
      problems.push(`${at}: the page imports the package ${spec} (it bundles no packages; ask the server)`);
      continue;
    }
    const target = relative(root, resolve(dirname(file), spec));
    const ok = target.startsWith(`web${sep}`) || target.startsWith(`src${sep}view${sep}`) || target === join('src', 'core', 'notation.js') || target === join('src', 'core', 'types.js');
    if (!ok) problems.push(`${at}: the page may import src/view/ and src/core/notation only, not ${target}`);
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`check-deps: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exit(1);
}
console.log(`check-deps: ${files.length} files and ${webFiles.length} page files, layering and purity ok`);
