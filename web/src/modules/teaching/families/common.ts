import type { ColumnDef, FieldDef } from '../../../kit/records/define';

/**
 * The legacy calls every reviewed teaching family answers under its base (the server's
 * `services/api/src/modules/teaching/paths.ts`); a family spreads them and names what differs.
 */
export const TEACHING_PATHS = {
  mine: 'POST mineList',
  trial: 'POST trialList',
  approved: 'POST successList',
  byId: 'GET detail',
  save: 'POST update',
  submit: 'POST submit',
  review: 'POST review',
  remove: 'POST remove',
  history: 'GET history',
  exportOne: 'GET exportForId',
  exportMany: 'GET exportAllForId',
  exportProgress: 'GET exportProgress',
  exportZip: 'GET exportZipDownload',
} as const;

/** A teaching field's label key (`teaching.fields.<name>`). */
export const f = (name: string) => `teaching.fields.${name}`;

/** The semester of today (Aug–Jan: the first term of a school year, Feb–Jul the second), a new record's default. */
export function currentSemester(now = new Date()): string {
  const y = now.getFullYear();
  const m = now.getMonth() + 1;
  if (m >= 8) return `${y}-${y + 1}-1`;
  if (m === 1) return `${y - 1}-${y}-1`;
  return `${y - 1}-${y}-2`;
}

export const semesterField: FieldDef = {
  name: 'semester',
  kind: 'text',
  label: f('semester'),
  required: true,
  max: 11,
  half: true,
  placeholder: '2026-2027-1',
};

/** One paragraph per domain of the Guidelines (class plans and summaries). */
export const domainsField = (label: string): FieldDef => ({
  name: 'domains',
  kind: 'perDomain',
  label,
  columns: [{ name: 'content', label: f('domainContent') }],
});

/** What the teaching lists end with: who wrote it, its last change. */
export const tailColumns = (): ColumnDef[] => [
  { field: 'authorName', label: 'records.fields.authorName', width: 110 },
  { field: 'updateTime', label: 'records.fields.updateTime', width: 160 },
];
