/** The user import's steps are the kit's (`kit/crud/sheetJob.ts`); the user export's parameters are its own. */
export * from '../../../kit/crud/sheetJob';

/** The export's parameters: the list's search and dept, without paging. */
export function exportParams(params: Record<string, string | number>): Record<string, string | number> {
  const { current: _c, size: _s, ...rest } = params;
  return Object.fromEntries(
    Object.entries(rest).filter(([key]) => key === 'account' || key === 'realName' || key === 'deptId'),
  );
}
