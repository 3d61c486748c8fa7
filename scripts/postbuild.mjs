// After tsc: make the CLI entry executable (tsc does not keep the mode bit), and save the
// pattern tables next to dist/core/patterns.js so a bot process reads them instead of
// classifying every line at start-up (patterns.ts "Saved tables", read by src/workers/tables.ts;
// a checksum at the end of each file).
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
const entry = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(entry)) chmodSync(entry, 0o755);

const patterns = new URL('../dist/core/patterns.js', import.meta.url);
if (existsSync(patterns)) {
  const { buildPatternTable, buildWindowTable, tableFileName, tableChecksum } = await import(patterns.href);
  for (const rule of ['freestyle', 'standard']) {
    const keys = buildPatternTable(rule);
    const win = buildWindowTable(rule, keys);
    for (const [kind, table] of [
      ['keys', keys],
      ['window', new Uint8Array(win.buffer, win.byteOffset, win.byteLength)],
    ]) {
      const out = new Uint8Array(table.length + 4);
      out.set(table);
      new DataView(out.buffer).setUint32(table.length, tableChecksum(table), true);
      writeFileSync(new URL(tableFileName(rule, kind), patterns), out);
    }
  }
}
