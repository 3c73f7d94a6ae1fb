import { Loader, NavLink, Paper, ScrollArea, Text } from '@mantine/core';
import { IconFolder, IconFolders } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import type { CrudSideTree as SideTree } from './define';
import { type SideNode, sideNodes } from './relations';
import { useKitText } from './useKitText';

interface CrudSideTreeProps {
  side: SideTree;
  /** The chosen node's value; null: the root ("all"). */
  chosen: string | null;
  onChoose: (value: string | null) => void;
}

/**
 * A tree beside a table (`side` of a definition): its root lists everything, a node lists the
 * rows under it. Every branch starts open; the chosen node is highlighted.
 */
export function CrudSideTree({ side, chosen, onChoose }: CrudSideTreeProps) {
  const { tr } = useKitText();
  const tree = useQuery({
    queryKey: ['crud', 'side', side.url],
    queryFn: async () => sideNodes(side, (await http.get<unknown>(side.url, {}, { notify: false })).data),
    staleTime: 60_000,
  });
  return (
    <Paper withBorder radius="sm" p="xs" data-testid="crud-side-tree">
      <ScrollArea.Autosize mah="calc(100vh - 220px)">
        <NavLink
          label={tr(side.all)}
          leftSection={<IconFolders size={16} />}
          active={chosen === null}
          onClick={() => onChoose(null)}
          data-testid="crud-side-all"
          childrenOffset={12}
          opened
          variant="light"
        >
          {(tree.data ?? []).map((node) => (
            <Node key={node.value} node={node} chosen={chosen} onChoose={onChoose} />
          ))}
        </NavLink>
        {tree.isPending && <Loader size="xs" m="sm" />}
        {tree.isSuccess && tree.data.length === 0 && (
          <Text size="sm" c="dimmed" px="sm">
            {tr('crud.table.empty')}
          </Text>
        )}
      </ScrollArea.Autosize>
    </Paper>
  );
}

function Node({ node, chosen, onChoose }: { node: SideNode; chosen: string | null; onChoose: (v: string) => void }) {
  const branch = node.children.length > 0;
  return (
    <NavLink
      label={node.label}
      leftSection={<IconFolder size={16} />}
      active={chosen === node.value}
      // Clicking a branch chooses it and opens or closes it.
      onClick={() => onChoose(node.value)}
      defaultOpened={branch}
      childrenOffset={12}
      variant="light"
      data-testid={`crud-side-node-${node.value}`}
    >
      {branch
        ? node.children.map((child) => <Node key={child.value} node={child} chosen={chosen} onChoose={onChoose} />)
        : undefined}
    </NavLink>
  );
}
