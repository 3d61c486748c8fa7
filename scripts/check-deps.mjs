#!/usr/bin/env node
// The lint rule for the architecture (../shared/docs/architecture.md, "Principles" 1):
//
//   core <- search <- proof <- {book, match} <- bot <- protocols <- workers <- cli
//   core <- view (the board picture and the web API's message types, shared by the CLI,
//   the server and the web page)
//
// (proof sits below book: the book writes certificates and checks them with the checker;
// bot, the game a bot hosts and its swap decisions, sits below protocols, which translate
// referees' lines into it)
//
// - a file may import its own directory and lower layers only (no upward or sideways imports);
// - core and search are pure: no Node built-ins, no native/process-level packages, no
//   console, no process;
// - core and search keep no state and read no clock (the rule and its limits: STATELESS below);
// - yargs only in cli; nothing under src/ imports scripts/ or test/;
// - the web page (web/src) imports only src/view and core's notation from src/.
// Usage: node scripts/check-deps.mjs [package-root]. Prints `file:line: problem` for each violation and exits 1; exits 0 when clean.
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);
const { default: ts } = await import('typescript');

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const src = join(root, 'src');

const LAYER = { core: 0, search: 1, view: 1, proof: 2, book: 3, match: 3, bot: 4, protocols: 5, workers: 6, cli: 7 };
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

// ---- core/ and search/ keep no state and read no clock ------------------------------------
// What they compute must depend on their arguments only, so that a search can be replayed
// node for node: the clock comes in as a `now` function, and whatever persists between calls
// lives in an object the caller holds (Solver, VcfSearcher, Engine, ...). Forbidden there:
//  - clocks and timers: Date, performance, setTimeout, setInterval, setImmediate and their
//    clear* functions (also as globalThis.X); a type annotation naming Date is fine;
//  - module-level `let` and `var`;
//  - a module-level instance of a class (`const x = new Foo()`), other than the built-in
//    containers below: its methods would be module state;
//  - writing to a module-level const's contents from inside a function: `X[i] = v`, `X.p = v`,
//    `X[i]++`, `delete X[i]`, or calling a mutating method on it (set, add, delete, clear, push,
//    pop, shift, unshift, splice, sort, reverse, fill, copyWithin).
// Allowed: lookup tables built at load (a typed array filled by top-level statements or a
// block, or returned by an IIFE) and never written after; and the write-once caches of
// core/lazy.ts (`lazyTables`), whose entries are pure functions of their keys, built on first
// use and never replaced (the pattern and geometry tables: a context object for them would have
// to be passed to every `new Board()`).
// Not seen (keep them out by review): state behind more than one plain alias (`const t = X;
// t[0] = 1` is seen), a module table passed to a function that writes it, and state hidden
// in a closure made by a top-level call.
const STATELESS = new Set(['core', 'search']);
const CLOCKS = new Set(['Date', 'performance', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate']);
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
const CONTAINERS = /^(?:(?:Int8|Uint8|Uint8Clamped|Int16|Uint16|Int32|Uint32|Float32|Float64|BigInt64|BigUint64)Array|Map|Set|WeakMap|WeakSet|Array)$/;

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
      else if (LAYER[to] >= LAYER[dir])
        problems.push(
          `${at}: ${dir} may not import ${to} (${spec}): dependencies point down: core <- search <- proof <- {book, match} <- bot <- protocols <- workers <- cli`,
        );
    } else {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (PURE.has(dir) && (builtins.has(spec) || builtins.has(pkg) || IMPURE_PACKAGES.has(pkg)))
        problems.push(`${at}: ${dir} is pure and may not import ${spec}`);
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
    const ok =
      target.startsWith(`web${sep}`) ||
      target.startsWith(`src${sep}view${sep}`) ||
      target === join('src', 'core', 'notation.js') ||
      target === join('src', 'core', 'types.js');
    if (!ok) problems.push(`${at}: the page may import src/view/ and src/core/notation only, not ${target}`);
  }
}

// the state rule reads each file's syntax tree, with symbols bound so that a local that shadows a
// module const is told apart from it (no type checking, no other files)
const statelessFiles = files.filter((f) => STATELESS.has(relative(src, f).split(sep)[0]));
if (statelessFiles.length > 0) {
  const program = ts.createProgram(statelessFiles, {
    noLib: true,
    noResolve: true,
    allowJs: true,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
  });
  const checker = program.getTypeChecker();
  for (const file of statelessFiles)
    problems.push(...stateProblems(program.getSourceFile(file), checker, relative(root, file), relative(src, file).split(sep)[0]));
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`check-deps: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exit(1);
}
console.log(`check-deps: ${files.length} files and ${webFiles.length} page files, layering, purity and statelessness ok`);

function stateProblems(sf, checker, rel, dir) {
  const out = [];
  const at = (node) => `${rel}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  const tell = (node, what) => out.push(`${at(node)}: ${dir} keeps no state and reads no clock: ${what}`);
  const fnLike = (n) => ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n) || (ts.isPropertyDeclaration(n) && !hasStatic(n));
  const hasStatic = (n) => (ts.getCombinedModifierFlags(n) & ts.ModifierFlags.Static) !== 0;
  // instances made at load (not inside a function, which runs later on someone's behalf)
  const findNew = (node) => {
    if (ts.isNewExpression(node)) {
      const name = node.expression.getText(sf);
      if (!CONTAINERS.test(name)) tell(node, `a module-level instance of ${name} (let the caller hold it)`);
    }
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, findNew);
  };
  const moduleConsts = new Set();
  const declare = (name, node) => {
    if (ts.isIdentifier(name)) moduleConsts.add(node);
    else for (const e of name.elements) if (!ts.isOmittedExpression(e)) declare(e.name, e);
  };
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      for (const d of st.declarationList.declarations) {
        if ((flags & ts.NodeFlags.Const) === 0)
          tell(d, `a module-level ${flags & ts.NodeFlags.Let ? 'let' : 'var'} ${d.name.getText(sf)} (pass it in an object the caller holds)`);
        else declare(d.name, d);
        if (d.initializer) findNew(d.initializer);
      }
    } else if (ts.isClassDeclaration(st)) {
      for (const m of st.members)
        if (ts.isPropertyDeclaration(m) && hasStatic(m)) tell(m, `a static property ${m.name.getText(sf)} (module state in disguise)`);
    }
  }
  const inType = (node) => {
    for (let a = node.parent; a && !ts.isStatement(a); a = a.parent) if (ts.isTypeNode(a) || ts.isExpressionWithTypeArguments(a)) return true;
    return false;
  };
  // an identifier read as a value (not a property name, a declaration's name or a type)
  const isValueRef = (id) => {
    const p = id.parent;
    if (p && p.name === id && !ts.isShorthandPropertyAssignment(p)) return false;
    if (p && (ts.isImportSpecifier(p) || ts.isExportSpecifier(p))) return false;
    return !inType(id);
  };
  // does this reference write to the referenced object's contents?
  const mutates = (id) => {
    let n = id;
    for (;;) {
      const p = n.parent;
      if (ts.isPropertyAccessExpression(p) && p.expression === n) {
        if (MUTATORS.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p) return `calls ${p.name.text}()`;
        n = p;
      } else if (ts.isElementAccessExpression(p) && p.expression === n) n = p;
      else if ((ts.isNonNullExpression(p) || ts.isParenthesizedExpression(p)) && p.expression === n) n = p;
      else break;
    }
    if (n === id) return undefined;
    const p = n.parent;
    if (
      ts.isBinaryExpression(p) &&
      p.left === n &&
      p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      p.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    )
      return 'assigns to it';
    if (
      (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) &&
      (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken)
    )
      return 'increments it';
    if (ts.isDeleteExpression(p)) return 'deletes from it';
    return undefined;
  };
  // a local const that is just another name for a module-level one (`const per = ROWS`)
  const aliases = new Map();
  const visit = (node, inFn) => {
    if (inFn && ts.isVariableDeclaration(node) && node.initializer && ts.isIdentifier(node.initializer)) {
      const sym = checker.getSymbolAtLocation(node.initializer);
      const decl = sym && (sym.valueDeclaration ?? sym.declarations?.[0]);
      if (decl && moduleConsts.has(decl)) aliases.set(node, node.initializer.text);
    }
    if (ts.isIdentifier(node) && isValueRef(node)) {
      if (CLOCKS.has(node.text)) tell(node, `${node.text} (take a now() function from the caller)`);
      else if (inFn) {
        const sym = checker.getSymbolAtLocation(node);
        const decl = sym && (sym.valueDeclaration ?? sym.declarations?.[0]);
        const target = decl && (moduleConsts.has(decl) ? node.text : aliases.get(decl));
        const how = target ? mutates(node) : undefined;
        if (how)
          tell(node, `a function writes to the module-level ${target}${target === node.text ? '' : ` through ${node.text}`} (${how}; let the caller hold it)`);
      }
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'globalThis' && CLOCKS.has(node.name.text)) {
      tell(node, `globalThis.${node.name.text} (take a now() function from the caller)`);
    }
    ts.forEachChild(node, (c) => visit(c, inFn || fnLike(node)));
  };
  visit(sf, false);
  return out;
}
