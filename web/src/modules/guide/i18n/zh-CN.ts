/** The Guidelines context's texts (`t('guide.<key>')`); `en.ts` has exactly these keys. */
export const zhCN = {
  child: {
    title: '{{name}}的成长观察',
    className: '班级：{{name}}',
    semester: '学期：{{semester}}（{{from}} 至 {{to}}）',
    records: '本学期记录 {{count}} 条',
    chartTitle: '本学期各领域观察次数',
    goalsTitle: '各目标观察情况',
    goalsObserved: '已观察 {{observed}} / {{total}} 个目标',
    gapsTitle: '尚未观察的目标',
    noGaps: '本学期 32 个目标都已观察到',
    timelineTitle: '观察记录',
    empty: '还没有提到这名幼儿的观察记录或倾听记录',
    count: '次数',
    more: '加载更多',
    untitled: '（无标题）',
    back: '返回幼儿列表',
  },
  kinds: {
    observation: '观察记录',
    observation_regional: '区域观察',
    hearken: '倾听记录',
  },
  statuses: {
    draft: '草稿',
    trial: '待审核',
    success: '已通过',
    returned: '已退回',
  },
  dashboard: {
    title: '观察记录概览',
    byClass: '各班观察记录',
    byTeacher: '各教师观察记录',
    coverage: '各班领域覆盖（本学期）',
    className: '班级',
    teacher: '教师',
    week: '本周',
    semester: '本学期',
    empty: '暂无观察记录',
    semesterLabel: '学期 {{semester}}，本周 {{from}} 至 {{to}}',
    coverageCell: '{{records}} 条 · {{goals}}/{{total}} 目标',
  },
};

export type GuideMessages = typeof zhCN;
