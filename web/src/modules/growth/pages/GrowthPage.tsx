import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconStarFilled, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { Can } from '../../../permissions/Can';
import { type EntryDraft, type GrowthEntry, growthApi, type KnownRecord } from '../api';
import { EntriesDialog, emptyDraft } from '../components/EntriesDialog';

const asDraft = (e: GrowthEntry): EntryDraft => ({
  id: e.id,
  category: e.category,
  title: e.title,
  entryDate: e.entryDate,
  level: e.level,
  content: e.content,
  attachIds: e.attachIds,
  files: [],
});

/**
 * 教师成长档案 (`/growth/teacher`): her entries by category, added and edited many at a time
 * (all or nothing), and, read only, what the platform knows of her — approved plans (excellent
 * first), observations, research. `?userId=` shows another teacher's archive in the caller's scope.
 */
export function GrowthPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [search] = useSearchParams();
  const userId = search.get('userId') ?? undefined;
  const [category, setCategory] = useState('all');
  const [editing, setEditing] = useState<{ drafts: EntryDraft[]; update: boolean } | null>(null);
  const entries = useQuery({ queryKey: ['growth', 'list', userId], queryFn: () => growthApi.list(userId) });
  const known = useQuery({ queryKey: ['growth', 'known', userId], queryFn: () => growthApi.known(userId) });
  const mine = !userId;
  const shown = (entries.data ?? []).filter((e) => category === 'all' || String(e.category) === category);
  const refresh = () => void client.invalidateQueries({ queryKey: ['growth', 'list'] });

  const remove = (e: GrowthEntry) =>
    modals.openConfirmModal({
      title: e.title,
      children: <Text size="sm">{t('growth.removeConfirm')}</Text>,
      labels: { confirm: t('growth.remove'), cancel: t('growth.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        await growthApi.remove([e.id]);
        notifications.show({ color: 'teal', message: t('growth.removed') });
        refresh();
      },
    });

  return (
    <BasicContainer data-testid="growth-page">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('growth.title')}</Title>
          {mine && (
            <Group>
              <Can code="growth_edit">
                <Button
                  variant="default"
                  leftSection={<IconEdit size={16} />}
                  disabled={!entries.data?.length}
                  onClick={() => setEditing({ drafts: (entries.data ?? []).map(asDraft), update: true })}
                  data-testid="growth-edit-all"
                >
                  {t('growth.editAll')}
                </Button>
              </Can>
              <Can code="growth_add">
                <Button
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setEditing({ drafts: [emptyDraft()], update: false })}
                  data-testid="growth-add"
                >
                  {t('growth.addMany')}
                </Button>
              </Can>
            </Group>
          )}
        </Group>
        <SegmentedControl
          value={category}
          onChange={setCategory}
          data={[
            { value: 'all', label: t('growth.all') },
            ...['1', '2', '3', '4', '5', '6'].map((c) => ({ value: c, label: t(`growth.categories.${c}` as never) })),
          ]}
          data-testid="growth-categories"
        />
        {shown.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {t('growth.empty')}
          </Text>
        ) : (
          <Table striped withTableBorder data-testid="growth-entries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={110}>{t('growth.entryDate')}</Table.Th>
                <Table.Th w={130}>{t('growth.category')}</Table.Th>
                <Table.Th>{t('growth.entryTitle')}</Table.Th>
                <Table.Th w={100}>{t('growth.level')}</Table.Th>
                <Table.Th>{t('growth.content')}</Table.Th>
                <Table.Th w={80}>{t('growth.attachments')}</Table.Th>
                {mine && <Table.Th w={60} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{e.entryDate}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" tt="none">
                      {t(`growth.categories.${e.category}` as never)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{e.title}</Table.Td>
                  <Table.Td>{e.level ? t(`growth.levels.${e.level}` as never) : ''}</Table.Td>
                  <Table.Td>{e.content}</Table.Td>
                  <Table.Td>{e.attachIds.length || ''}</Table.Td>
                  {mine && (
                    <Table.Td>
                      <Can code="growth_delete">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('growth.remove')}
                          onClick={() => remove(e)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Can>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Stack gap={2} mt="md">
          <Title order={4}>{t('growth.known.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('growth.known.hint')}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 3 }} data-testid="growth-known">
          <KnownCard title={t('growth.known.plans')} rows={known.data?.plans} testId="growth-known-plans" />
          <KnownCard
            title={t('growth.known.observations')}
            rows={known.data?.observations}
            testId="growth-known-observations"
          />
          <KnownCard title={t('growth.known.research')} rows={known.data?.research} testId="growth-known-research" />
        </SimpleGrid>
      </Stack>
      <EntriesDialog
        initial={editing?.drafts ?? null}
        update={editing?.update ?? false}
        onClose={() => setEditing(null)}
        onSaved={(count) => {
          setEditing(null);
          notifications.show({ color: 'teal', message: t('growth.saved', { count }) });
          refresh();
        }}
      />
    </BasicContainer>
  );
}

function KnownCard({ title, rows, testId }: { title: string; rows: KnownRecord[] | undefined; testId: string }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {!rows?.length && (
        <Text size="sm" c="dimmed">
          {t('growth.known.none')}
        </Text>
      )}
      <Stack gap={6}>
        {rows?.slice(0, 12).map((r) => (
          <Group key={r.id} gap={6} wrap="nowrap" justify="space-between">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              {r.excellent && (
                <Badge
                  color="yellow"
                  leftSection={<IconStarFilled size={10} />}
                  size="sm"
                  tt="none"
                  style={{ flexShrink: 0, overflow: 'visible' }}
                >
                  {t('growth.known.excellent')}
                </Badge>
              )}
              <Text size="sm" truncate>
                {r.title || t(`growth.kinds.${r.kind}` as never)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {t(`growth.kinds.${r.kind}` as never)} · {r.updateTime.slice(0, 10)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
