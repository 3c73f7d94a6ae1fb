/**
 * The 32 goals of 《3-6岁儿童学习与发展指南》 by code (`<domain>-<sub-domain>-<goal>`): what a
 * record may tag — the guide context's text, the same one it seeds as the `guide` tree.
 */
export { GOAL_CODES as GUIDE_GOAL_CODES } from '../guide';
