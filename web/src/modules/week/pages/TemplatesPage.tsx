import { Alert, Badge, Button, Group, LoadingOverlay, SegmentedControl, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { useStore } from '../../../lib/createStore';
import { usePermission } from '../../../permissions/Can';
import { sessionStore } from '../../auth';
import { templateApi } from '../api';
import { IconAction } from '../components/IconAction/IconAction';
import { type NewTemplate, NewTemplateFields, newTemplateContent } from '../components/Templates/NewTemplateFields';
import { SaveTemplateModal } from '../components/Templates/TemplateModals';
import { newDayPlanContent } from '../model/content';
import { localYmd } from '../model/weekDates';
import { PageTitle } from '../components/PageTitle/PageTitle';
import { useConfirm } from '../hooks/useBusyActions';
import { useLoad } from '../hooks/useLoad';
import { richToText } from '../model/rich';
import type { RichText, Template, TemplateKind } from '../model/types';

function summary(tpl: Template): string {
  const c = tpl.content ?? {};
  if (Array.isArray(c.segments)) return (c.segments as { segment?: string }[]).map((s) => s.segment ?? '').join(' · ');
  return [typeof c.theme === 'string' ? c.theme : '', richToText(c.weeklyGoals as RichText | undefined)]
    .filter(Boolean)
    .join(' — ');
}

/** 备课模板 (`week_template`): the templates I may use; delete my own (shared ones with `template_delete`). */
export function TemplatesPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'all' | TemplateKind>('all');
  const userId = useStore(sessionStore, (s) => s.user?.userId ?? '');
  const canDeleteShared = usePermission({ code: 'template_delete' });
  const { data, loading, error, reload } = useLoad(() => templateApi.list(kind === 'all' ? undefined : kind), [kind]);
  const rows = data ?? [];
  const confirm = useConfirm();
  const [writing, setWriting] = useState<NewTemplate | null>(null);
  const segmentsOf = (variant: 'half' | 'full') => newDayPlanContent(variant, localYmd()).segments;
  const blank = (): NewTemplate => ({
    kind: kind === 'all' ? 'week' : kind,
    theme: '',
    weeklyGoals: '',
    environment: '',
    homeCooperation: '',
    segments: kind === 'half' || kind === 'full' ? segmentsOf(kind) : [],
  });

  const remove = (tpl: Template) =>
    confirm(
      t('week.template.deleteConfirm', { name: tpl.name }),
      () =>
        void templateApi
          .remove(tpl.id)
          .then(() => {
            notifications.show({ color: 'teal', message: t('week.template.deleted') });
            return reload();
          })
          .catch(() => undefined),
      'red',
    );

  return (
    <BasicContainer data-testid="week-templates">
      <Group justify="space-between" mb="md" align="flex-start">
        <PageTitle title={t('menu.week_template')} intro={t('week.list.templateIntro')} />
        <Group gap="sm">
          <SegmentedControl
            value={kind}
            onChange={(v) => setKind(v as typeof kind)}
            data={[
              { value: 'all', label: t('week.template.allKinds') },
              { value: 'week', label: t('week.template.kinds.week') },
              { value: 'half', label: t('week.template.kinds.half') },
              { value: 'full', label: t('week.template.kinds.full') },
            ]}
          />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setWriting(blank())} data-testid="template-new">
            {t('week.template.new')}
          </Button>
        </Group>
      </Group>
      <SaveTemplateModal
        kind={writing?.kind ?? 'week'}
        opened={writing !== null}
        onClose={() => setWriting(null)}
        onSaved={() => void reload()}
        title={t('week.template.new')}
        content={() => (writing ? newTemplateContent(writing) : {})}
        defaultName=""
      >
        {writing && <NewTemplateFields value={writing} onChange={setWriting} segmentsOf={segmentsOf} />}
      </SaveTemplateModal>
      {error && !data ? (
        <Alert color="red">{t('week.list.failed')}</Alert>
      ) : (
        <div style={{ position: 'relative', minHeight: 120, overflowX: 'auto' }}>
          <LoadingOverlay visible={loading} loaderProps={{ size: 'sm' }} />
          <Table striped highlightOnHover verticalSpacing="sm" miw={760} data-testid="list-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('week.template.name')}</Table.Th>
                <Table.Th>{t('week.template.kind')}</Table.Th>
                <Table.Th>{t('week.template.scope')}</Table.Th>
                <Table.Th>{t('week.fields.content')}</Table.Th>
                <Table.Th>{t('week.template.author')}</Table.Th>
                <Table.Th>{t('week.fields.createTime')}</Table.Th>
                <Table.Th ta="right">{t('week.list.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && !loading ? (
                <Table.Tr>
                  <Table.Td colSpan={7}>
                    <Text c="dimmed" ta="center" py="lg">
                      {t('week.template.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((tpl) => (
                  <Table.Tr key={tpl.id} data-testid="list-row">
                    <Table.Td fw={600}>{tpl.name}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" tt="none">
                        {t(`week.template.kinds.${tpl.kind}` as never)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={tpl.shared ? 'teal' : 'gray'} tt="none">
                        {tpl.shared ? t('week.template.shared') : t('week.template.personal')}
                      </Badge>
                    </Table.Td>
                    <Table.Td maw={320}>
                      <Text size="sm" c="dimmed" lineClamp={2}>
                        {summary(tpl)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{tpl.createUserName ?? ''}</Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {tpl.createTime ?? ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        {(tpl.mine || tpl.createUser === userId || (tpl.shared && canDeleteShared)) && (
                          <IconAction label={t('week.template.delete')} color="red" onClick={() => remove(tpl)}>
                            <IconTrash size={18} />
                          </IconAction>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </BasicContainer>
  );
}
