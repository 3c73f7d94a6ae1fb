/**
 * The 32 goals of 《3-6岁儿童学习与发展指南》 by code (`<domain>-<sub-domain>-<goal>`): what a
 * record may tag until the `guide` business dictionary is seeded with the same codes.
 */
const goalsOf = (domain: string, counts: number[]) =>
  counts.flatMap((n, sub) => Array.from({ length: n }, (_, g) => `${domain}-${sub + 1}-${g + 1}`));

export const GUIDE_GOAL_CODES: readonly string[] = [
  ...goalsOf('health', [3, 3, 3]),
  ...goalsOf('language', [3, 3]),
  ...goalsOf('social', [4, 3]),
  ...goalsOf('science', [3, 3]),
  ...goalsOf('art', [2, 2]),
];
