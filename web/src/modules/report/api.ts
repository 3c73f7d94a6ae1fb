import { http, requestBlob, saveFile } from '../../lib/http';

/** Reports' calls (docs/API.md "Reports"). */
export const REPORT_BASE = '/blade-report/report/rest';
export const PARAM_TYPES = ['date', 'class', 'dept', 'teacher', 'text', 'number'] as const;
export const CHART_TYPES = ['none', 'bar', 'line', 'pie'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
export type ChartType = (typeof CHART_TYPES)[number];

export interface ReportParam {
  name: string;
  label: string;
  type: ParamType;
  required: boolean;
}
export interface ReportColumn {
  key: string;
  label: string;
}
export interface ReportChart {
  type: ChartType;
  x: string;
  y: string[];
}
export interface Report {
  id: string;
  code: string;
  name: string;
  params: ReportParam[];
  query: string;
  columns: ReportColumn[];
  chart: ReportChart;
  remark: string;
  createTime: string;
}
export type Row = Record<string, unknown>;
export interface RunAnswer {
  columns: ReportColumn[];
  rows: Row[];
  truncated: boolean;
  chart: ReportChart;
}
export interface PreviewAnswer {
  columns: string[];
  rows: Row[];
  truncated: boolean;
}
export type Values = Record<string, string>;

export const reportApi = {
  list: (name: string) =>
    http.get<{ records: Report[]; total: number }>(`${REPORT_BASE}/list`, {
      current: 1,
      size: 200,
      name: name || undefined,
    }),
  detail: (id: string) => http.get<Report>(`${REPORT_BASE}/detail`, { id }),
  submit: (body: Partial<Report>) => http.post<Report>(`${REPORT_BASE}/submit`, body),
  remove: (id: string) => http.post<null>(`${REPORT_BASE}/remove?ids=${encodeURIComponent(id)}`),
  preview: (body: { query: string; params: ReportParam[]; values: Values }) =>
    http.post<PreviewAnswer>(`${REPORT_BASE}/preview`, body, { notify: false }),
  run: (id: string, values: Values) => http.post<RunAnswer>(`${REPORT_BASE}/run`, { id, values }),
  export: async (id: string, values: Values, name: string) =>
    saveFile(await requestBlob(`${REPORT_BASE}/export`, { id, values: JSON.stringify(values) }, `${name}.xlsx`)),
};

/** The reporting views and their columns (docs/API.md "Reports"), the designer's help. */
export const REPORT_VIEWS: Record<string, string> = {
  records:
    'id, kind, status, title, teacher_id, teacher_name, dept_id, dept_name, class_id, class_name, semester, record_date, month, excellent, submit_time, review_time, reviewer_name, create_time',
  observations: 'records + observation_type',
  lesson_plans: 'records',
  reviews: 'records + review_hours, reviewed',
  goal_tags: 'records + goal, domain',
  leave_days: 'teacher_id, teacher_name, dept_id, dept_name, start_date, end_date, month, days',
};
