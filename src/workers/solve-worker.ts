/** Piscina worker: one solve job in, one plain result out. */
import { solveJob, type SolveJob, type SolveJobResult } from './solve-job.js';
import { useSavedTables } from './tables.js';

useSavedTables();

export default function run(job: SolveJob): SolveJobResult {
  return solveJob(job);
}
