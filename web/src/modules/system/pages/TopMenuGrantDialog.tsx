import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CheckTreeDialog, type CrudRecord, type ServerTreeNode, toCheckTree } from '../../../kit/crud';
import { http } from '../../../lib/http';

/**
 * The top-menu grant dialog (button `topmenu_grant`, BladeX 菜单配置): the menus
 * (`menu/grant-top-tree`) as a checkable tree, checked as the selected top menus show them
 * (`menu/top-tree-keys`); saving sets the menus of every selected top menu (`topmenu/grant`).
 * A checked menu stands for its whole subtree, so only whole subtrees are sent.
 */
export function TopMenuGrantDialog({ rows, onClose }: { rows: CrudRecord[]; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const topMenuIds = rows.map((r) => String(r.id));
  const tree = useQuery({
    queryKey: ['system', 'topmenu-grant', 'tree'],
    queryFn: async () => (await http.get<{ menu: ServerTreeNode[] }>('/blade-system/menu/grant-top-tree')).data,
    gcTime: 0,
  });
  const keys = useQuery({
    queryKey: ['system', 'topmenu-grant', 'keys', topMenuIds.join(',')],
    queryFn: async () =>
      (await http.get<{ menu: string[] }>('/blade-system/menu/top-tree-keys', { topMenuIds: topMenuIds.join(',') }))
        .data,
    gcTime: 0,
  });
  const save = useMutation({
    mutationFn: (ids: Record<string, string[]>) =>
      http.post<null>('/blade-system/topmenu/grant', { topMenuIds, menuIds: ids.menu ?? [] }),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('crud.notify.done') });
      void client.invalidateQueries({ queryKey: ['system', 'topmenu-grant'] });
      onClose();
    },
  });
  return (
    <CheckTreeDialog
      opened
      title={t('system.topmenu.grant.title', { count: rows.length })}
      tabs={
        tree.data && keys.data
          ? [
              {
                key: 'menu',
                label: 'system.topmenu.grant.menu',
                mode: 'subtree',
                nodes: toCheckTree(tree.data.menu),
                held: keys.data.menu,
              },
            ]
          : null
      }
      saving={save.isPending}
      onSave={(ids) => save.mutate(ids)}
      onClose={onClose}
      testId="topmenu-grant-dialog"
    />
  );
}
