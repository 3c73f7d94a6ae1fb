/**
 * An Excel import's progress as the dialog shows it (pure): the server's job
 * (`import-progress?jobId=`) → a step of the dialog (users, teachers, children).
 * Contract: docs/API.md "Users", "Teacher master data".
 */

/** One bad cell of the sheet: its row (as Excel numbers it), its column and the reason. */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}

/** The server's answer about an import job. */
export interface ImportProgress {
  state: 'validating' | 'writing' | 'done' | 'failed';
  total: number;
  done: number;
  errors?: ImportRowError[];
  message?: string;
}

export type ImportStep =
  | { kind: 'pick' }
  | { kind: 'uploading' }
  | { kind: 'running'; phase: 'validating' | 'writing'; total: number; done: number; percent: number }
  | { kind: 'done'; total: number }
  | { kind: 'failed'; errors: ImportRowError[]; message: string };

/** How far the job is, 0–100 (an empty sheet is finished). */
export function percentOf(done: number, total: number): number {
  if (!(total > 0)) return 100;
  return Math.max(0, Math.min(100, Math.round((Math.max(0, done) / total) * 100)));
}

/** The dialog's step for an answer about the job; `fallback` is the message of a failure that names none. */
export function stepOf(progress: ImportProgress | null | undefined, fallback: string): ImportStep {
  if (!progress) return { kind: 'failed', errors: [], message: fallback };
  const total = Number(progress.total) || 0;
  const done = Number(progress.done) || 0;
  switch (progress.state) {
    case 'done':
      return { kind: 'done', total };
    case 'failed':
      return {
        kind: 'failed',
        // In the sheet's order: by row, then by column.
        errors: [...(progress.errors ?? [])].sort((a, b) => a.row - b.row || a.column.localeCompare(b.column)),
        message: progress.message?.trim() || fallback,
      };
    case 'validating':
    case 'writing':
      return { kind: 'running', phase: progress.state, total, done, percent: percentOf(done, total) };
    default:
      return { kind: 'failed', errors: [], message: fallback };
  }
}

/** Is the job still going (poll again)? */
export const isRunning = (step: ImportStep): boolean => step.kind === 'running' || step.kind === 'uploading';

/** Only Excel workbooks (.xlsx) are taken. */
export const isWorkbook = (file: { name: string } | null | undefined): boolean =>
  Boolean(file && /\.xlsx$/i.test(file.name));
