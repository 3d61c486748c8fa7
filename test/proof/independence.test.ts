import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect, test } from 'vitest';

/** Runtime (non-type) imports of a source file, as paths relative to src/. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(join('src', file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?[^'"]*from\s+'([^']+)';/gm)) {
    if (m[1]) continue; // `import type` is erased
    const spec = m[2]!;
    if (!spec.startsWith('.')) {
      out.push(spec);
      continue;
    }
    out.push(relative('src', normalize(join('src', dirname(file), spec))).replace(/\.js$/, '.ts'));
  }
  return out;
}

test('the checker shares no threat logic with the solver', () => {
  // Everything verify.ts loads at run time, transitively.
  const seen = new Set<string>();
  const todo = ['proof/verify.ts'];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const dep of runtimeImports(f)) if (dep.endsWith('.ts')) todo.push(dep);
  }
  expect([...seen].sort()).toEqual(['core/notation.ts', 'core/types.ts', 'proof/check-board.ts', 'proof/hash-table.ts', 'proof/verify.ts']);
});
