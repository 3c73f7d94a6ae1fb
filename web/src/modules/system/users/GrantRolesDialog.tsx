import { Button, Group, Modal, ScrollArea, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import { CheckTree, type CrudRecord, crudKeys, joinIds, type ServerTreeNode, toCheckTree } from '../../../kit/crud';
import { usersApi } from './api';

/** The roles the users hold in common (the boxes checked at first). */
function sharedRoles(rows: readonly CrudRecord[]): string[] {
  const [first = [], ...rest] = rows.map((r) =>
    String(r.roleId ?? '')
      .split(',')
      .filter(Boolean),
  );
  return first.filter((id) => rest.every((s) => s.includes(id)));
}

/**
 * 角色配置 (`user_role`): the tenant's role tree as checkboxes; saving replaces the roles of
 * the chosen users (`grant?userIds=&roleIds=`). Their abilities change on their next request.
 */
export function GrantRolesDialog({ rows, onClose }: { rows: CrudRecord[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [checked, setChecked] = useState<string[]>([]);
  const roles = useQuery({
    queryKey: ['crud', 'options', '/blade-system/role/tree', 'check'],
    queryFn: async () => toCheckTree((await http.get<ServerTreeNode[]>('/blade-system/role/tree')).data),
    enabled: rows !== null,
  });
  useEffect(() => {
    if (rows) setChecked(sharedRoles(rows));
  }, [rows]);
  const grant = useMutation({
    mutationFn: () => usersApi.grant(joinIds(rows ?? []), checked.join(',')),
    onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all('/blade-user') }),
  });
  const save = async () => {
    try {
      await grant.mutateAsync();
      notifications.show({ color: 'teal', message: t('system.user.grant.done') });
      onClose();
    } catch {
      /* the client showed the server's message */
    }
  };
  return (
    <Modal
      opened={rows !== null}
      onClose={onClose}
      title={t('system.user.grant.title')}
      centered
      data-testid="user-grant-dialog"
    >
      <Text size="sm" c="dimmed" mb="sm">
        {t('system.user.grant.who', { names: (rows ?? []).map((r) => String(r.realName || r.account)).join('、') })}
      </Text>
      <ScrollArea.Autosize mah={360}>
        <CheckTree
          data={roles.data ?? []}
          checked={checked}
          onChange={setChecked}
          mode="each"
          testId="user-grant-role"
        />
      </ScrollArea.Autosize>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {t('system.user.cancel')}
        </Button>
        <Button onClick={save} loading={grant.isPending} data-testid="user-grant-save">
          {t('system.user.save')}
        </Button>
      </Group>
    </Modal>
  );
}
