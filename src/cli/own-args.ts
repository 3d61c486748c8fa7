/**
 * Options without yargs, for the commands whose start-up counts (`play`: the contest bot's
 * first answer; `serve`: the page within a second of the command): loading yargs and its
 * help rendering cost about a third of such a start. main.ts takes this path for them
 * unless help or the version is asked for. The options are the same table the command's
 * yargs builder reads (kebab-case, `--opt value` or `--opt=value`); the record is the one
 * yargs would give (camelCase keys, numbers as numbers, a non-number left as a string for
 * the command's own check to name, defaults filled in).
 */
import { parseArgs } from 'node:util';
import { type Result, err, ok } from '../core/types.js';

export type OptionTable = Record<string, { type: 'string' | 'number' | 'boolean'; default?: unknown }>;

/**
 * `--time -5` as `--time=-5`: node's parseArgs refuses a value that starts with a dash as
 * "ambiguous", and the command's own check should name the bad value instead.
 */
function joinNegativeValues(args: string[], options: OptionTable): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const o = a.startsWith('--') ? options[a.slice(2)] : undefined;
    const next = args[i + 1];
    if (o && o.type !== 'boolean' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

export function parseOwnArgs(args: string[], options: OptionTable, maxPositionals: number): Result<{ values: Record<string, unknown>; positionals: string[] }> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, options),
      allowPositionals: true,
      strict: true,
      // numbers are read as strings here and converted below, as yargs would
      options: Object.fromEntries(Object.entries(options).map(([name, o]) => [name, { type: o.type === 'boolean' ? 'boolean' : 'string' } as const])),
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const unknown = /^Unknown option '--?([^']+)'/.exec(msg);
    return err(unknown ? `Unknown argument: ${unknown[1]}` : msg.split('\n')[0]!.replace(/\.$/, ''));
  }
  if (parsed.positionals.length > maxPositionals) return err(`Unknown argument: ${parsed.positionals[maxPositionals]}`);
  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(options)) {
    const v = (parsed.values as Record<string, string | boolean | undefined>)[name];
    const key = name.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());
    if (v === undefined) {
      if (o.default !== undefined) values[key] = o.default;
      continue;
    }
    values[key] = o.type === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return ok({ values, positionals: parsed.positionals });
}
