/**
 * Split an engine command line the way a POSIX shell would for simple cases: words
 * separated by blanks; '…' quotes literally; "…" quotes with \" \\ \$ \` escapes; a
 * backslash outside quotes escapes the next character. No variables, globs or
 * redirections: the words go to the program as they are.
 */
import { type Result, err, ok } from '../core/types.js';

export function splitCommandLine(s: string): Result<string[]> {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      i++;
    } else if (ch === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return err(`unterminated ' quote in '${s}'`);
      cur += s.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= s.length) return err(`unterminated " quote in '${s}'`);
        const c = s[i]!;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\' && i + 1 < s.length && '"\\$`'.includes(s[i + 1]!)) {
          cur += s[i + 1]!;
          i += 2;
        } else {
          cur += c;
          i++;
        }
      }
    } else if (ch === '\\') {
      if (i + 1 >= s.length) return err(`trailing backslash in '${s}'`);
      cur += s[i + 1]!;
      inWord = true;
      i += 2;
    } else {
      cur += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(cur);
  if (words.length === 0) return err('empty engine command');
  return ok(words);
}

/** Parse `NAME=CMD` (the name may not be empty or contain '='). */
export function parseEngineSpec(spec: string): Result<{ name: string; argv: string[] }> {
  const eq = spec.indexOf('=');
  if (eq <= 0) return err(`bad --engine '${spec}' (expected NAME=COMMAND)`);
  const name = spec.slice(0, eq).trim();
  if (name === '' || /\s/.test(name)) return err(`bad engine name '${name}' in --engine '${spec}' (no spaces)`);
  const argv = splitCommandLine(spec.slice(eq + 1));
  if (!argv.ok) return err(`--engine ${name}: ${argv.error}`);
  if (argv.value[0] === '') return err(`--engine ${name}: the program name is empty`);
  return ok({ name, argv: argv.value });
}
