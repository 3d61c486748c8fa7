#!/usr/bin/env node
// Reads the third-party Yixin/Rapfi database sample with our LZ4 + yxdb codec and writes it
// back: a local check of the format code against real data (not part of the test suite,
// which builds its own data). Needs `npx tsc -p .` first.
//   node scripts/book-yxdb-sample.mjs [../shared/testdata/formats/jiutian-guide-v5-1.renju.yxdb]
import { readFileSync } from 'node:fs';
import { decodeYxdb, encodeYxdbStream } from '../dist/book/yxdb.js';
import { lz4Decode } from '../dist/book/lz4.js';
import { helpOnRequest } from './usage.mjs';

helpOnRequest(import.meta.url);

const file = process.argv[2] ?? new URL('../../shared/testdata/formats/jiutian-guide-v5-1.renju.yxdb', import.meta.url).pathname;
const bytes = readFileSync(file);
const t0 = performance.now();
const r = decodeYxdb(bytes);
if (!r.ok) {
  console.error(`FAILED: ${r.error}`);
  process.exit(1);
}
const ms = performance.now() - t0;
const labels = {};
for (const x of r.value) labels[x.label] = (labels[x.label] ?? 0) + 1;
const raw = lz4Decode(bytes);
const again = encodeYxdbStream(r.value);
const back = decodeYxdb(again.bytes);
const same = back.ok && JSON.stringify(back.value) === JSON.stringify(r.value);
const identical = raw.ok && Buffer.from(raw.value).equals(Buffer.from(again.bytes));
console.log(
  `${file}: ${r.value.length} records (${raw.ok ? raw.value.length : '?'} bytes unpacked) in ${ms.toFixed(1)} ms; labels ${JSON.stringify(labels)}; re-encoded ${again.written} (skipped ${again.skipped}), round trip ${same ? 'identical' : 'DIFFERENT'}; re-encoded stream ${identical ? 'byte-identical to the original' : 'differs in bytes'}`,
);
process.exit(same ? 0 : 1);
