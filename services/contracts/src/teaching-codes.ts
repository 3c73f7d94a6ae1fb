/**
 * The teaching families' codes (issue 19 part A) without zod, for the browser: teacher plan
 * types, research forms, project levels and statuses (each a business dictionary's keys).
 * `./teaching.ts` builds its schemas on these and re-exports them.
 */

/** 教师计划 types: 学期计划 / 个人发展规划 (dictionary `teacher_plan_type`). */
export const TEACHER_PLAN_TYPES = ['term', 'development'] as const;
/** 教研活动 forms: 集体备课 / 观摩研讨 / 专题讲座 / 案例分析 (dictionary `research_form`). */
export const RESEARCH_FORMS = ['prep', 'observe', 'lecture', 'case'] as const;
/** 课题 levels: 国家 / 省 / 市 / 区 / 园 (dictionary `project_level`). */
export const PROJECT_LEVELS = ['national', 'province', 'city', 'district', 'school'] as const;
/** 课题 status: 申报中 / 研究中 / 已结题 (dictionary `project_status`). */
export const PROJECT_STATUSES = ['applying', 'ongoing', 'concluded'] as const;
/** A semester: `2026-2027-1` (first term of a school year) or `…-2`. */
export const SEMESTER_PATTERN = /^(\d{4})-(\d{4})-[12]$/;
