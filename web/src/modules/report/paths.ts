/** The report pages besides the menu's list. */
export const REPORT_PATHS = {
  list: '/report/reportlist/index',
  design: '/report/design',
  run: '/report/view',
} as const;
