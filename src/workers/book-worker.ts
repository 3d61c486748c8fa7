/** Piscina worker for book builds: one job in, one plain result out (no database handle). */
import { runBookJob, type BookJob, type BookJobResult } from '../book/job.js';
import { useSavedTables } from './tables.js';

// read the saved pattern tables instead of classifying every line in each new thread
useSavedTables();

export default function run(job: BookJob): BookJobResult {
  return runBookJob(job);
}
