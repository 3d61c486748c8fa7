#!/usr/bin/env node
// Runs `gomoku play` from dist/ without the CLI registry (for tests and scripts until
// src/cli/main.ts registers the command): node scripts/gomoku-play.mjs play --protocol ...
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { command } from '../dist/cli/commands/play.js';

yargs(hideBin(process.argv))
  .scriptName('gomoku')
  .command(command)
  .demandCommand(1)
  .strict()
  .fail((msg, e) => {
    process.stderr.write(`gomoku: ${msg ?? (e && e.message)}\n`);
    process.exit(2);
  })
  .parse();
