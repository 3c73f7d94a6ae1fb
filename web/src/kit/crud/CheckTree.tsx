import { Checkbox, Stack } from '@mantine/core';
import type { SideNode } from './relations';

interface CheckTreeProps {
  nodes: readonly SideNode[];
  /** The checked nodes' values. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** `data-testid` prefix of each box (`<prefix>-<value>`). */
  testId?: string;
}

/**
 * A tree of checkboxes (a dialog's picker: roles to grant): each node is checked on its own,
 * the levels indented.
 */
export function CheckTree({ nodes, value, onChange, testId = 'check-tree' }: CheckTreeProps) {
  const toggle = (node: string, on: boolean) =>
    onChange(on ? [...new Set([...value, node])] : value.filter((v) => v !== node));
  const level = (list: readonly SideNode[], depth: number) =>
    list.map((node) => (
      <Stack key={node.value} gap={6} pl={depth > 0 ? 20 : 0}>
        <Checkbox
          label={node.label}
          checked={value.includes(node.value)}
          onChange={(e) => toggle(node.value, e.currentTarget.checked)}
          data-testid={`${testId}-${node.value}`}
        />
        {node.children.length > 0 && level(node.children, depth + 1)}
      </Stack>
    ));
  return (
    <Stack gap={6} data-testid={testId}>
      {level(nodes, 0)}
    </Stack>
  );
}
