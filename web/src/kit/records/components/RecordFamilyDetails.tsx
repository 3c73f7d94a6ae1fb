import { Alert, Button, Grid, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconArrowBackUp,
  IconAward,
  IconCheck,
  IconFileTypeDocx,
  IconPencil,
  IconPrinter,
  IconSend,
  IconStar,
  IconStarFilled,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isEditableStatus } from '@sprout/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { ApiError, saveFile } from '../../../lib/http';
import { getStore } from '../../../lib/storage';
import { usePermission } from '../../../permissions/Can';
import { type FamilyApi, type FamilyRecord, familyApi } from '../api';
import { detailsHref, type RecordFamily } from '../define';
import { FamilyHistory } from './HistoryTimeline';
import { RecordEditor } from './RecordEditor';
import { RecordItems } from './RecordItems';
import { RecordView } from './RecordView';
import classes from './records.module.css';
import { ReviewDialog } from './ReviewDialog';
import { StatusBadge } from './StatusBadge';

/**
 * A family's detail route (`…Details?id=`): the record as printed with its history and the
 * review panel; `?id=…&mode=edit` the editor; no id a new record (`fixed`: what the route fixes,
 * e.g. the observation type of `/observation/autoObservationDetails`).
 */
export function RecordFamilyDetails({ family, fixed }: { family: RecordFamily; fixed?: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const api = useMemo(() => familyApi(family), [family]);
  const id = params.get('id') ?? '';
  const editing = !id || params.get('mode') === 'edit';
  const client = useQueryClient();
  const record = useQuery({
    queryKey: ['record', family.kind, id],
    queryFn: () => api.byId(id, { notify: false }),
    enabled: Boolean(id),
    retry: false,
  });
  const show = (recordId: string) =>
    navigate(detailsHref(family, { id: recordId, content: fixed }), { replace: false });

  if (id && record.isPending)
    return (
      <BasicContainer>
        <Loader />
      </BasicContainer>
    );
  if (id && record.isError) {
    const missing = record.error instanceof ApiError && [400, 403, 404].includes(record.error.status);
    return (
      <BasicContainer>
        <Alert color={missing ? 'gray' : 'red'} data-testid="record-missing">
          {t(missing ? 'records.details.notFound' : 'records.details.loadFailed')}
        </Alert>
      </BasicContainer>
    );
  }
  const loaded = record.data ?? null;
  if (editing && (!loaded || isEditableStatus(loaded.status)))
    return (
      <BasicContainer>
        {loaded?.status === 'returned' && loaded.reviewComment && (
          // Until it is submitted again, the fix starts from the reviewer's words.
          <Alert
            color="red"
            mb="md"
            icon={<IconArrowBackUp size={18} />}
            title={t('records.editor.returnedTitle')}
            data-testid="record-returned-notice"
          >
            <Text size="xs" c="dimmed">
              {t('records.details.lastReview', { name: loaded.reviewerName, time: loaded.reviewTime })}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {t('records.details.commentLine', { comment: loaded.reviewComment })}
            </Text>
          </Alert>
        )}
        <RecordEditor
          key={loaded ? `${loaded.id}` : 'new'}
          family={family}
          api={api}
          record={loaded}
          fixed={fixed}
          onCreated={(created) => setParams({ id: created.id, mode: 'edit' }, { replace: true })}
          onDone={(doneId, done) => {
            // The submit's answer is the record as it now is: shown at once, never the draft it was.
            if (done) client.setQueryData(['record', family.kind, doneId], done);
            else void record.refetch();
            setParams({ id: doneId }, { replace: true });
          }}
        />
        {family.items && loaded && (
          <Paper withBorder p="lg" radius="md" mt="lg">
            <RecordItems family={family} parent={loaded} />
          </Paper>
        )}
      </BasicContainer>
    );
  if (!loaded) return null;
  return (
    <BasicContainer>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Paper withBorder p="lg" radius="md" className={classes.sheet}>
            <RecordView family={family} record={loaded} />
            {family.items && <RecordItems family={family} parent={loaded} />}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }} className={classes.noPrint}>
          <Stack>
            <ReviewPanel
              family={family}
              api={api}
              record={loaded}
              onEdit={() => setParams({ id, mode: 'edit' })}
              show={show}
            />
            <Paper withBorder p="md" radius="md">
              <Title order={5} mb="sm">
                {t('records.details.history')}
              </Title>
              <FamilyHistory family={family} api={api} id={loaded.id} version={loaded.version} />
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </BasicContainer>
  );
}

/** What may be done with the record now: edit / submit, approve / return, excellent, favourites, Word export. */
function ReviewPanel({
  family,
  api,
  record,
  onEdit,
}: {
  family: RecordFamily;
  api: FamilyApi;
  record: FamilyRecord;
  onEdit: () => void;
  show: (id: string) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [reviewing, setReviewing] = useState<'approve' | 'return' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const can = {
    edit: usePermission({ code: family.button('edit') }),
    submit: usePermission({ code: family.button('submit') }),
    review: usePermission({ code: family.button('review') }),
    excellent: usePermission({ code: family.button('excellent') }),
    export: usePermission({ code: family.button('export') }),
  };
  // A reviewer does not write others' records: the edit and submit buttons are their authors' (and
  // their class team's, which the server decides); the signed-in user as the session stored it.
  const me = getStore<{ userId?: string }>('user-info')?.userId ?? '';
  const wrote = record.authorId === me || record.coAuthorIds.includes(me);
  const editable = isEditableStatus(record.status) && (wrote || !can.review);
  const refresh = () => client.invalidateQueries({ queryKey: ['record', family.kind, record.id] });
  const act = async (name: string, call: () => Promise<unknown>, message: string) => {
    setBusy(name);
    try {
      await call();
      notifications.show({ color: 'teal', message });
      await refresh();
    } catch {
      /* the client showed the message */
    } finally {
      setBusy(null);
    }
  };
  const exportWord = async () => {
    setBusy('export');
    try {
      const name = `${record.title || record.id}.docx`;
      saveFile(await (api.has('exportUrl') ? api.exportLinked(record.id, name) : api.exportOne(record.id, name)));
    } catch {
      /* the client showed the message */
    } finally {
      setBusy(null);
    }
  };
  const excellentPath = record.excellent ? api.has('excellentUnmark') : api.has('excellentMark');
  const collectPath = record.collected ? api.has('cancelCollect') : api.has('collect');
  return (
    <Paper withBorder p="md" radius="md" data-testid="review-panel">
      <Group justify="space-between" mb="sm">
        <Title order={5}>{t('records.details.reviewPanel')}</Title>
        <Group gap={4}>
          <StatusBadge status={record.status} excellent={record.excellent} data-testid="record-status" />
        </Group>
      </Group>
      <Stack gap={4} mb="sm">
        <Text size="sm" c="dimmed">
          {record.authorName} · {record.className} · {record.updateTime}
        </Text>
        {record.reviewerName && record.reviewTime && (
          <Text size="sm" c="dimmed">
            {t(`${family.reviewAs?.texts ?? 'records.details'}.lastReview` as 'records.details.lastReview', {
              name: record.reviewerName,
              time: record.reviewTime,
            })}
          </Text>
        )}
        {record.reviewComment && (
          <Alert color={record.status === 'returned' ? 'red' : 'teal'} p="xs" data-testid="review-comment-shown">
            <Text size="sm">
              {t(`${family.reviewAs?.texts ?? 'records.details'}.commentLine` as 'records.details.commentLine', {
                comment: record.reviewComment,
              })}
            </Text>
          </Alert>
        )}
      </Stack>
      <Group gap="xs">
        {editable && can.edit && (
          <Button size="xs" leftSection={<IconPencil size={14} />} onClick={onEdit} data-testid="details-edit">
            {t('records.details.edit')}
          </Button>
        )}
        {editable && can.submit && api.has('submit') && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSend size={14} />}
            loading={busy === 'submit'}
            onClick={() =>
              modals.openConfirmModal({
                title: t('records.editor.submit'),
                children: <Text size="sm">{t('records.editor.submitConfirm')}</Text>,
                labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
                onConfirm: () =>
                  void act('submit', () => api.submit(record.id, record.version), t('records.editor.submitted')),
              })
            }
            data-testid="details-submit"
          >
            {t('records.details.submit')}
          </Button>
        )}
        {record.status === 'trial' && can.review && api.has('review') && (
          <>
            <Button
              size="xs"
              color="teal"
              leftSection={<IconCheck size={14} />}
              onClick={() => setReviewing('approve')}
              data-testid="details-approve"
            >
              {t(`${family.reviewAs?.texts ?? 'records.details'}.approve` as never)}
            </Button>
            {!family.reviewAs?.noReturn && (
              <Button
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconArrowBackUp size={14} />}
                onClick={() => setReviewing('return')}
                data-testid="details-return"
              >
                {t('records.details.return')}
              </Button>
            )}
          </>
        )}
        {record.status === 'success' && can.excellent && excellentPath && (
          <Button
            size="xs"
            color="yellow"
            variant="light"
            leftSection={<IconAward size={14} />}
            loading={busy === 'excellent'}
            onClick={() =>
              void act(
                'excellent',
                () => (record.excellent ? api.unmarkExcellent(record.id) : api.markExcellent(record.id)),
                t(record.excellent ? 'records.details.unmarked' : 'records.details.marked'),
              )
            }
            data-testid="details-excellent"
          >
            {t(record.excellent ? 'records.details.unmarkExcellent' : 'records.details.markExcellent')}
          </Button>
        )}
        {record.status === 'success' && collectPath && (
          <Button
            size="xs"
            variant="light"
            color="orange"
            leftSection={record.collected ? <IconStarFilled size={14} /> : <IconStar size={14} />}
            loading={busy === 'collect'}
            onClick={() =>
              void act(
                'collect',
                () => (record.collected ? api.cancelCollect(record.id) : api.collect(record.id)),
                t(record.collected ? 'records.details.uncollected' : 'records.details.collected'),
              )
            }
            data-testid="details-collect"
            data-collected={record.collected}
          >
            {t(record.collected ? 'records.details.uncollect' : 'records.details.collect')}
          </Button>
        )}
        {can.export && (api.has('exportUrl') || api.has('exportOne')) && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFileTypeDocx size={14} />}
            loading={busy === 'export'}
            onClick={() => void exportWord()}
            data-testid="details-export"
          >
            {t('records.details.exportWord')}
          </Button>
        )}
        <Button size="xs" variant="subtle" leftSection={<IconPrinter size={14} />} onClick={() => window.print()}>
          {t('records.details.print')}
        </Button>
      </Group>
      <ReviewDialog
        texts={family.reviewAs?.texts}
        commentAlways={family.reviewAs?.commentAlways}
        action={reviewing}
        onClose={() => setReviewing(null)}
        onSubmit={async (action, comment) => {
          try {
            await api.review(record.id, action, comment);
            notifications.show({
              color: 'teal',
              message: t(action === 'approve' ? 'records.details.approved' : 'records.details.returned'),
            });
            setReviewing(null);
            await refresh();
          } catch {
            /* the client showed the message; the dialog stays with the comment */
          }
        }}
      />
    </Paper>
  );
}
