import { ActionIcon, Badge, Button, Group, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconChartBar, IconPencil, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { RowCards } from '../../../kit/records/components/RowCards';
import { Can } from '../../../permissions/Can';
import { reportApi } from '../api';
import { REPORT_PATHS } from '../paths';

/** 报表管理 (menu `report`, `/report/reportlist`): the tenant's reports, to run, design or delete. */
export function ReportListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const list = useQuery({ queryKey: ['reports', name], queryFn: () => reportApi.list(name) });
  const rows = list.data?.data.records ?? [];
  // A phone shows the records kit's cards: name, parameters, created, the buttons under them.
  const narrow = useMediaQuery('(max-width: 48em)');
  const remove = (id: string, reportName: string) =>
    modals.openConfirmModal({
      title: t('report.list.remove'),
      children: <Text size="sm">{t('report.list.removeConfirm', { name: reportName })}</Text>,
      labels: { confirm: t('report.list.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'report-remove-confirm' },
      onConfirm: async () => {
        await reportApi.remove(id);
        notifications.show({ message: t('report.list.removed'), color: 'teal' });
        await client.invalidateQueries({ queryKey: ['reports'] });
      },
    });
  const nameOf = (r: (typeof rows)[number]) => (
    <Group gap={6}>
      <IconChartBar size={16} />
      <Text size="sm">{r.name}</Text>
      {r.code ? (
        <Badge size="xs" variant="light">
          {t('report.list.shipped')}
        </Badge>
      ) : null}
    </Group>
  );
  const actionsOf = (r: (typeof rows)[number]) => (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('report.list.run')}>
        <ActionIcon
          variant="subtle"
          aria-label={t('report.list.run')}
          onClick={() => navigate(`${REPORT_PATHS.run}?id=${r.id}`)}
          data-testid="report-run"
        >
          <IconPlayerPlay size={16} />
        </ActionIcon>
      </Tooltip>
      <Can code="report_edit">
        <Tooltip label={t('report.list.design')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('report.list.design')}
            onClick={() => navigate(`${REPORT_PATHS.design}?id=${r.id}`)}
            data-testid="report-design"
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      </Can>
      <Can code="report_delete">
        <Tooltip label={t('report.list.remove')}>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('report.list.remove')}
            onClick={() => remove(r.id, r.name)}
            data-testid="report-remove"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Can>
    </Group>
  );
  return (
    <Stack gap="sm" data-testid="report-list-page">
      <Group justify="space-between">
        <TextInput
          placeholder={t('report.list.search')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="report-search"
          w={260}
        />
        <Can code="report_add">
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => navigate(REPORT_PATHS.design)}
            data-testid="report-add"
          >
            {t('report.list.add')}
          </Button>
        </Can>
      </Group>
      {narrow ? (
        <RowCards
          records={rows}
          columns={[
            { key: 'name', label: t('report.list.name'), render: nameOf },
            { key: 'params', label: t('report.list.params'), render: (r) => r.params.map((p) => p.label).join('、') },
            { key: 'createTime', label: t('report.list.createTime'), render: (r) => r.createTime },
          ]}
          actions={actionsOf}
          empty={false}
          rowTestId="report-row"
        />
      ) : (
        <Table striped highlightOnHover withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('report.list.name')}</Table.Th>
              <Table.Th>{t('report.list.params')}</Table.Th>
              <Table.Th>{t('report.list.createTime')}</Table.Th>
              <Table.Th w={140} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id} data-testid={`report-row-${r.id}`} data-name={r.name}>
                <Table.Td>{nameOf(r)}</Table.Td>
                <Table.Td>{r.params.map((p) => p.label).join('、')}</Table.Td>
                <Table.Td>{r.createTime}</Table.Td>
                <Table.Td>{actionsOf(r)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!rows.length && !list.isLoading ? (
        <Text c="dimmed" size="sm">
          {t('report.list.empty')}
        </Text>
      ) : null}
    </Stack>
  );
}
