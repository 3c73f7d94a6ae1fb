/** The lesson-plan screens: the spec's routes (§2) and the catalogue's menu routes (leaf paths + /index). */
export const WEEK_PATHS = {
  editor: '/week/week/',
  details: '/weekdetails/details',
  halfList: '/week/halfPlanList',
  fullList: '/week/halfPlanListTX',
  tianYuan: '/week/halfplanTianYuan',
  tongXing: '/week/halfplanTongXing',
  mine: '/week/mine/index',
  trial: '/week/trial/index',
  success: '/week/success/index',
  excellent: '/week/excellent/index',
  favorite: '/week/favorite/index',
  template: '/week/template/index',
} as const;

export const editorHref = (id?: string | null, mode?: 'review') =>
  id ? `${WEEK_PATHS.editor}?id=${encodeURIComponent(id)}${mode ? `&mode=${mode}` : ''}` : WEEK_PATHS.editor;

export const detailsHref = (id: string) => `${WEEK_PATHS.details}?id=${encodeURIComponent(id)}`;
