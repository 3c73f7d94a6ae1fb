import { GUIDE_GOAL_PATTERN } from '@sprout/contracts/observation-codes';

/**
 * 《3-6岁儿童学习与发展指南》 goals as the goal picker offers them: groups "健康 · 身心状况" of
 * goals "目标1 具有健康的体态", read from the Guidelines' tree (`GET /api/guide/tree`, the
 * `guide` business dictionary: domain → sub-domain → goal, codes like `health-2-3`).
 */
export interface GoalGroup {
  /** "健康 · 身心状况". */
  label: string;
  goals: { value: string; label: string }[];
}

type Node = Record<string, unknown>;

const codeOf = (node: Node): string => String(node.code ?? node.dictKey ?? node.key ?? node.value ?? '');

function titleOf(node: Node, english: boolean): string {
  const en = node.nameEn ?? node.titleEn ?? node.dictValueEn ?? node.labelEn;
  const zh = node.title ?? node.name ?? node.dictValue ?? node.label;
  return String((english && en) || zh || en || codeOf(node));
}

const childrenOf = (node: Node): Node[] => (Array.isArray(node.children) ? (node.children as Node[]) : []);

/** The tree's goals grouped under "domain · sub-domain", in the tree's order; [] when it holds none. */
export function readGuideTree(raw: unknown, english: boolean): GoalGroup[] {
  const roots = (Array.isArray(raw) ? raw : childrenOf((raw ?? {}) as Node)) as Node[];
  const groups: GoalGroup[] = [];
  const walk = (nodes: Node[], trail: string[]) => {
    let group: GoalGroup | null = null;
    for (const node of nodes) {
      const code = codeOf(node);
      if (GUIDE_GOAL_PATTERN.test(code)) {
        if (!group) {
          group = { label: trail.join(' · '), goals: [] };
          groups.push(group);
        }
        group.goals.push({ value: code, label: titleOf(node, english) });
      } else {
        walk(childrenOf(node), [...trail, titleOf(node, english)]);
      }
    }
  };
  walk(roots, []);
  return groups;
}

/** A goal's label in the groups ("健康 · 动作发展 · 目标3 …"), or its code when unknown. */
export function goalLabel(groups: readonly GoalGroup[], code: string): string {
  for (const group of groups) {
    const goal = group.goals.find((g) => g.value === code);
    if (goal) return group.label ? `${group.label} · ${goal.label}` : goal.label;
  }
  return code;
}
