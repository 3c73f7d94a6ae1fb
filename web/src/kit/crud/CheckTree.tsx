import { Checkbox, Group, Text, Tree, useTree } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useMemo } from 'react';
import { type CheckMode, type CheckTreeNode, indexTree, stateOf, toggleNode } from './checkTree';

interface CheckTreeProps {
  data: CheckTreeNode[];
  /** The checked nodes (see checkTree.ts for what a parent shows in each mode). */
  checked: string[];
  onChange: (checked: string[]) => void;
  mode: CheckMode;
  testId?: string;
}

/**
 * A tree with a checkbox on each node (Mantine's `Tree` for the rendering and the folding; the
 * checking is checkTree.ts's): checking a parent checks its subtree, a parent partly checked
 * shows half-checked. The top level starts expanded; a chevron or a parent's label folds it.
 */
export function CheckTree({ data, checked, onChange, mode, testId }: CheckTreeProps) {
  const index = useMemo(() => indexTree(data), [data]);
  const set = useMemo(() => new Set(checked), [checked]);
  const initialExpandedState = useMemo(() => Object.fromEntries(data.map((n) => [n.value, true])), [data]);
  const tree = useTree({ initialExpandedState });
  return (
    <Tree
      data={data}
      tree={tree}
      levelOffset={22}
      expandOnClick={false}
      data-testid={testId}
      renderNode={({ node, expanded, hasChildren, elementProps, tree: t }) => {
        const state = stateOf(index, set, node.value, mode);
        const toggle = () => onChange(toggleNode(index, checked, node.value, mode));
        return (
          <Group
            gap={6}
            wrap="nowrap"
            py={3}
            {...elementProps}
            data-testid="check-tree-node"
            data-checked={state === 'checked' ? 'true' : state === 'mixed' ? 'mixed' : 'false'}
          >
            {hasChildren ? (
              <IconChevronRight
                size={14}
                style={{
                  transform: expanded ? 'rotate(90deg)' : undefined,
                  transition: 'transform 150ms',
                  flex: 'none',
                }}
                onClick={() => t.toggleExpanded(node.value)}
              />
            ) : (
              <span style={{ width: 14, flex: 'none' }} />
            )}
            <Checkbox.Indicator
              size="sm"
              checked={state === 'checked'}
              indeterminate={state === 'mixed'}
              style={{ cursor: 'pointer' }}
              onClick={toggle}
              data-testid="check-tree-box"
            />
            <Text
              size="sm"
              style={{ cursor: 'pointer' }}
              onClick={() => (hasChildren ? t.toggleExpanded(node.value) : toggle())}
            >
              {node.label}
            </Text>
          </Group>
        );
      }}
    />
  );
}
