/**
 * The observation families' codes (issue 18) without zod: the browser imports them from here
 * (`@sprout/contracts/observation-codes`) so a page that only needs a list of types does not
 * bundle the schemas (whose top-level zod calls probe `new Function`, which the web app's CSP
 * reports). `./observation.ts` builds its schemas on these and re-exports them.
 */

/** The five domains of 《3-6岁儿童学习与发展指南》, in its own order. */
export const GUIDE_DOMAINS = ['health', 'language', 'social', 'science', 'art'] as const;
export type GuideDomain = (typeof GUIDE_DOMAINS)[number];
/**
 * A goal of the Guidelines: `<domain>-<sub-domain n>-<goal n>`, e.g. `health-2-3`
 * (健康 · 动作发展 · 目标3). The seeded tree (business dictionary `guide`) is the list of
 * the 32 that exist; the server refuses any other.
 */
export const GUIDE_GOAL_PATTERN = /^(health|language|social|science|art)-[1-3]-[1-4]$/;
/** The domain a goal code belongs to. */
export const domainOfGoal = (code: string): GuideDomain => code.split('-')[0] as GuideDomain;

/** 观察记录 types (the `observation_type` business dictionary's keys; `/observation/type/getList`). */
export const OBSERVATION_TYPES = ['general', 'play', 'sharing'] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

/** 区域观察 areas (the `regional_area` business dictionary's keys). */
export const REGIONAL_AREAS = ['construction', 'art', 'reading', 'science', 'role', 'puzzle', 'other'] as const;

export const CREVIEW_STAGES = ['pre', 'mid', 'post'] as const; // 前审议 / 中审议 / 后审议

/** 倾听记录 types (the `hearken_type` business dictionary's keys; `/hearken/type/getList`). */
export const HEARKEN_TYPES = ['drawing', 'language', 'work', 'game'] as const; // 绘画表征 / 语言 / 作品 / 游戏
