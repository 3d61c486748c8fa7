/** `gomoku book <command>`: the opening book (query, stats, export, build). */
import type { CommandModule } from 'yargs';
import { command as query } from './book-query.js';
import { command as stats } from './book-stats.js';
import { command as exportCmd } from './book-export.js';

export const command: CommandModule = {
  command: 'book <command>',
  describe: 'query, inspect, export or build the opening book',
  builder: (y) => y.command(query).command(stats).command(exportCmd).demandCommand(1, 'name a book command'),
  handler: () => {},
};
