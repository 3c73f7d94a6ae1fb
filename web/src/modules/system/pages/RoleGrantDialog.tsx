import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CheckTreeDialog,
  type CheckTreeTab,
  type CrudRecord,
  type ServerTreeNode,
  toCheckTree,
} from '../../../kit/crud';
import { http } from '../../../lib/http';

interface GrantTree {
  menu: ServerTreeNode[];
  dataScope: ServerTreeNode[];
  apiScope: ServerTreeNode[];
}
interface RoleKeys {
  menu: string[];
  dataScope: string[];
  apiScope: string[];
}

/**
 * The role grant dialog (button `role_grant`, BladeX 权限设置): what the caller may grant
 * (`menu/grant-tree`) as three checkable trees, checked as the selected roles hold them
 * (`menu/role-tree-keys`, their union); saving replaces the grants of every selected role
 * (`role/grant`), the half-checked menus included as BladeX sends them.
 */
export function RoleGrantDialog({ rows, onClose }: { rows: CrudRecord[]; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const roleIds = rows.map((r) => String(r.id));
  const tree = useQuery({
    queryKey: ['system', 'role-grant', 'tree'],
    queryFn: async () => (await http.get<GrantTree>('/blade-system/menu/grant-tree')).data,
    gcTime: 0,
  });
  const keys = useQuery({
    queryKey: ['system', 'role-grant', 'keys', roleIds.join(',')],
    queryFn: async () =>
      (await http.get<RoleKeys>('/blade-system/menu/role-tree-keys', { roleIds: roleIds.join(',') })).data,
    gcTime: 0,
  });
  const save = useMutation({
    mutationFn: (ids: Record<string, string[]>) =>
      http.post<null>('/blade-system/role/grant', {
        roleIds,
        menuIds: ids.menu ?? [],
        dataScopeIds: ids.dataScope ?? [],
        apiScopeIds: ids.apiScope ?? [],
      }),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('crud.notify.done') });
      void client.invalidateQueries({ queryKey: ['system', 'role-grant'] });
      onClose();
    },
  });
  const tabs: CheckTreeTab[] | null =
    tree.data && keys.data
      ? [
          {
            key: 'menu',
            label: 'system.role.grant.menu',
            mode: 'grant',
            nodes: toCheckTree(tree.data.menu),
            held: keys.data.menu,
          },
          {
            key: 'dataScope',
            label: 'system.role.grant.dataScope',
            mode: 'grant',
            nodes: toCheckTree(tree.data.dataScope),
            held: keys.data.dataScope,
          },
          {
            key: 'apiScope',
            label: 'system.role.grant.apiScope',
            mode: 'grant',
            nodes: toCheckTree(tree.data.apiScope),
            held: keys.data.apiScope,
          },
        ]
      : null;
  return (
    <CheckTreeDialog
      opened
      title={t('system.role.grant.title', { count: rows.length })}
      tabs={tabs}
      saving={save.isPending}
      onSave={(ids) => save.mutate(ids)}
      onClose={onClose}
      testId="role-grant-dialog"
    />
  );
}
