/** Piscina worker for book builds: one job in, one plain result out (no database handle). */
import { runBookJob, type BookJob, type BookJobResult } from './job.js';

export default function run(job: BookJob): BookJobResult {
  return runBookJob(job);
}
