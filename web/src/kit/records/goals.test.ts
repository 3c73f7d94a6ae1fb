import { describe, expect, it } from 'vitest';
import { goalLabel, readGuideTree } from './goals';

const tree = [
  {
    code: 'health',
    title: '健康',
    nameEn: 'Health',
    children: [
      {
        code: 'health-2',
        title: '动作发展',
        nameEn: 'Motor development',
        children: [
          { code: 'health-2-1', title: '目标1 具有一定的平衡能力，动作协调、灵敏', nameEn: 'Goal 1' },
          { code: 'health-2-3', title: '目标3 手的动作灵活协调', nameEn: 'Goal 3' },
        ],
      },
    ],
  },
];

describe('the Guidelines’ goals for the picker', () => {
  it('groups the tree’s goals under “domain · sub-domain”, in the user’s language', () => {
    expect(readGuideTree(tree, false)).toEqual([
      {
        label: '健康 · 动作发展',
        goals: [
          { value: 'health-2-1', label: '目标1 具有一定的平衡能力，动作协调、灵敏' },
          { value: 'health-2-3', label: '目标3 手的动作灵活协调' },
        ],
      },
    ]);
    expect(readGuideTree({ children: tree }, true)[0]?.label).toBe('Health · Motor development');
  });

  it('reads dictionary rows (dictKey / dictValue) as well', () => {
    const rows = [
      {
        dictKey: 'art',
        dictValue: '艺术',
        children: [
          { dictKey: 'art-1', dictValue: '感受与欣赏', children: [{ dictKey: 'art-1-2', dictValue: '目标2' }] },
        ],
      },
    ];
    expect(readGuideTree(rows, false)).toEqual([
      { label: '艺术 · 感受与欣赏', goals: [{ value: 'art-1-2', label: '目标2' }] },
    ]);
  });

  it('labels a chosen goal with its group, an unknown one with its code', () => {
    const groups = [{ label: '社会 · 社会适应', goals: [{ value: 'social-2-1', label: '喜欢并适应群体生活' }] }];
    expect(goalLabel(groups, 'social-2-1')).toBe('社会 · 社会适应 · 喜欢并适应群体生活');
    expect(goalLabel(groups, 'art-9-9')).toBe('art-9-9');
  });
});
