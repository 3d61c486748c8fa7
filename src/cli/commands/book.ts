/** `gomoku book <command>`: the opening book (query, stats, export, build, proof, verify, worker). */
import type { CommandModule } from 'yargs';
import { command as query } from './book-query.js';
import { command as stats } from './book-stats.js';
import { command as exportCmd } from './book-export.js';
import { command as build } from './book-build.js';
import { command as proof } from './book-proof.js';
import { command as verify } from './book-verify.js';
import { command as worker } from './book-worker.js';

export const command: CommandModule = {
  command: 'book <command>',
  describe: 'query, inspect, export or build the opening book (alone or with workers on many machines)',
  builder: (y) =>
    y.command(query).command(stats).command(exportCmd).command(build).command(proof).command(verify).command(worker).demandCommand(1, 'name a book command'),
  handler: () => {},
};
