import { defineCrud } from '../../../kit/crud';

const STATUSES = ['draft', 'trial', 'returned', 'success', 'deleted'] as const;

/**
 * 审计追溯's search (`GET /api/audit/search`, read only): every stream — teaching records of every
 * family and workflow instances — by type, class, author, reviewer, title, state, the record's
 * date range and "changed between"; each row its current state and last change. The page adds
 * the link to a stream's story.
 */
export const auditSearch = defineCrud({
  resource: '/audit',
  paths: { list: 'search' },
  texts: 'audit.search',
  testId: 'audit-page',
  buttons: {},
  columns: [
    {
      prop: 'streamType',
      type: 'select',
      search: true,
      width: 100,
      optionsFrom: { url: '/audit/types', value: 'value', label: 'label' },
    },
    { prop: 'title', search: true, sortable: true },
    {
      prop: 'status',
      type: 'select',
      search: true,
      width: 110,
      options: STATUSES.map((s) => ({ value: s, label: `audit.status.${s}` })),
      badges: { draft: 'gray', trial: 'orange', returned: 'red', success: 'teal', deleted: 'dark' },
    },
    { prop: 'className', search: true, sortable: true, width: 80 },
    { prop: 'authorName', search: true, sortable: true, width: 80 },
    { prop: 'reviewerName', search: true, sortable: true, width: 80 },
    { prop: 'createTime', search: 'range', sortable: true, width: 155 },
    { prop: 'lastTime', search: 'range', sortable: true, width: 155 },
    { prop: 'lastActor', width: 140 },
    { prop: 'version', hide: true },
  ],
});
