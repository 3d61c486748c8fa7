/** `gomoku book <command>`: the opening book (query, stats, export, build, proof, verify). */
import type { CommandModule } from 'yargs';
import { command as query } from './book-query.js';
import { command as stats } from './book-stats.js';
import { command as exportCmd } from './book-export.js';
import { command as build } from './book-build.js';
import { command as proof } from './book-proof.js';
import { command as verify } from './book-verify.js';

export const command: CommandModule = {
  command: 'book <command>',
  describe: 'query, inspect, export or build the opening book',
  builder: (y) => y.command(query).command(stats).command(exportCmd).command(build).command(proof).command(verify).demandCommand(1, 'name a book command'),
  handler: () => {},
};
