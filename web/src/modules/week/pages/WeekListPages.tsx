import type { TFunction } from 'i18next';
import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAward,
  IconClipboardCheck,
  IconEye,
  IconFileTypeDocx,
  IconFileZip,
  IconPencil,
  IconPlus,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isEditableStatus } from '@sprout/contracts';
import { saveFile } from '../../../lib/http';
import { Can, usePermission } from '../../../permissions/Can';
import { planApi, weekApi } from '../api';
import { ExportProgressModal } from '../../../kit/records/components/ExportProgressModal';
import { IconAction } from '../components/IconAction/IconAction';
import { type Column, type FilterName, headerColumns, RecordList } from '../components/RecordList/RecordList';
import { ExcellentBadge } from '../components/StatusBadge/StatusBadge';
import { useConfirm } from '../hooks/useBusyActions';
import { useWeekLabels, type WeekLabels } from '../hooks/useWeekLabels';
import type { PlanRow, WeekRow } from '../model/types';
import { useRouteQuery } from '../hooks/useRouteQuery';
import { detailsHref, editorHref, WEEK_PATHS } from '../paths';

type T = TFunction;

/** A row's act: the call, a green note once done, then the list again (the HTTP client already showed a failure). */
const actThen = (call: Promise<unknown>, message: string, reload: () => Promise<void>) =>
  call
    .then(() => {
      notifications.show({ color: 'teal', message });
      return reload();
    })
    .catch(() => undefined);

function weekColumns(t: T, labels: WeekLabels, open: (row: WeekRow) => string): Column<WeekRow>[] {
  const header = headerColumns<WeekRow>(t);
  return [
    {
      key: 'theme',
      label: t('week.fields.theme'),
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          <Anchor component={Link} to={open(row)} fw={600} data-testid="list-open">
            {row.title}
          </Anchor>
          {row.excellent && <ExcellentBadge size="xs" />}
        </Group>
      ),
    },
    header.class,
    {
      key: 'week',
      label: t('week.fields.weekNo'),
      render: (row) => (
        <div>
          <Text size="sm">{row.summary?.weekNo ? labels.weekNo(row.summary.weekNo) : '—'}</Text>
          <Text size="xs" c="dimmed">
            {row.summary?.startDate?.slice(5)} ~ {row.summary?.endDate?.slice(5)}
          </Text>
        </div>
      ),
    },
    {
      key: 'semester',
      label: t('week.fields.semester'),
      render: (row) => <Text size="sm">{labels.semester(row.semester)}</Text>,
    },
    header.status,
    header.author,
    header.updateTime,
  ];
}

const WEEK_FILTERS: FilterName[] = ['theme', 'classId', 'status', 'semester', 'weekNo', 'authorName'];

/** The lists of one status (the review queue, the approved) neither show nor filter it. */
const ONE_STATUS_FILTERS = WEEK_FILTERS.filter((f) => f !== 'status');
const oneStatusColumns = (t: T, labels: WeekLabels) =>
  weekColumns(t, labels, (row) => detailsHref(row.id)).filter((c) => c.key !== 'status');

/** 我的备课 (`week_mine`): weeks I wrote or co-wrote, with "new". */
export function MyWeeksPage() {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const canDelete = usePermission({ code: 'week_delete' });
  const confirm = useConfirm();
  const open = (row: WeekRow) => (isEditableStatus(row.status) ? editorHref(row.id) : detailsHref(row.id));
  // The dashboard's to-dos open this list filtered by status (`?status=draft`).
  const status = useRouteQuery(WEEK_PATHS.mine).get('status');
  return (
    <RecordList<WeekRow>
      title={t('menu.week_mine')}
      intro={t('week.list.mineIntro')}
      preset={{ status }}
      fetch={(q, f) => weekApi.mine(q, f)}
      filters={WEEK_FILTERS}
      classSource="mine"
      columns={weekColumns(t, labels, open)}
      toolbar={
        <Can code="week_add">
          <Button component={Link} to={editorHref()} leftSection={<IconPlus size={16} />} data-testid="week-new">
            {t('week.list.new')}
          </Button>
        </Can>
      }
      actions={(row, reload) => (
        <>
          <IconAction label={t('week.list.open')} to={detailsHref(row.id)}>
            <IconEye size={18} />
          </IconAction>
          {isEditableStatus(row.status) && (
            <>
              <IconAction label={t('week.list.edit')} to={editorHref(row.id)}>
                <IconPencil size={18} />
              </IconAction>
              {canDelete && (
                <IconAction
                  label={t('week.editor.delete')}
                  color="red"
                  onClick={() =>
                    confirm(
                      t('week.editor.deleteConfirm'),
                      () => void actThen(weekApi.remove([row.id]), t('week.editor.deleted'), reload),
                      'red',
                    )
                  }
                >
                  <IconTrash size={18} />
                </IconAction>
              )}
            </>
          )}
        </>
      )}
      data-testid="week-mine"
    />
  );
}

/** 待审核备课 (`week_trial`): the review queue; open → details with approve / return. */
export function TrialWeeksPage() {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  return (
    <RecordList<WeekRow>
      title={t('menu.week_trial')}
      intro={t('week.list.trialIntro')}
      fetch={(q, f) => weekApi.trial(q, f)}
      filters={ONE_STATUS_FILTERS}
      columns={oneStatusColumns(t, labels)}
      actions={(row) => (
        <Button
          size="xs"
          component={Link}
          to={detailsHref(row.id)}
          leftSection={<IconClipboardCheck size={14} />}
          data-testid="list-review"
        >
          {t('week.list.review')}
        </Button>
      )}
      data-testid="week-trial"
    />
  );
}

/** 已通过备课 (`week_success`): approved weeks; several export together as a zip. */
export function ApprovedWeeksPage() {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const canExport = usePermission({ code: 'week_export' });
  const [exporting, setExporting] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  return (
    <>
      <RecordList<WeekRow>
        title={t('menu.week_success')}
        intro={t('week.list.successIntro')}
        fetch={(q, f) => weekApi.approved(q, f)}
        filters={ONE_STATUS_FILTERS}
        columns={oneStatusColumns(t, labels)}
        bulk={
          canExport
            ? (ids) => (
                <Button
                  leftSection={<IconFileZip size={16} />}
                  disabled={ids.length === 0}
                  onClick={() => setExporting(ids)}
                  data-testid="list-export-selected"
                >
                  {t('week.list.exportSelected', { count: ids.length })}
                </Button>
              )
            : undefined
        }
        actions={(row) => (
          <>
            <IconAction label={t('week.list.open')} to={detailsHref(row.id)}>
              <IconEye size={18} />
            </IconAction>
            {canExport && (
              <IconAction
                label={t('week.editor.export')}
                loading={busy === row.id}
                onClick={() => {
                  setBusy(row.id);
                  void weekApi
                    .exportOne(row.id, `${row.title}.docx`)
                    .then(saveFile)
                    .catch(() => undefined)
                    .finally(() => setBusy(null));
                }}
              >
                <IconFileTypeDocx size={18} />
              </IconAction>
            )}
          </>
        )}
        data-testid="week-success"
      />
      <ExportProgressModal ids={exporting} onClose={() => setExporting(null)} api={weekApi} texts="week.export" />
    </>
  );
}

function planColumns(t: T, labels: WeekLabels): Column<PlanRow>[] {
  const header = headerColumns<PlanRow>(t);
  return [
    {
      key: 'title',
      label: t('week.fields.title'),
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          {row.parentId ? (
            <Anchor component={Link} to={detailsHref(row.parentId)} fw={600} data-testid="list-open">
              {row.title}
            </Anchor>
          ) : (
            <Text fw={600}>{row.title}</Text>
          )}
          {row.excellent && <ExcellentBadge size="xs" />}
        </Group>
      ),
    },
    header.class,
    {
      key: 'domain',
      label: t('week.fields.domain'),
      render: (row) => (
        <Badge variant="light" color="grape" tt="none">
          {labels.domain(row.summary?.domain ?? 0)}
        </Badge>
      ),
    },
    {
      key: 'type',
      label: t('week.fields.activityType'),
      render: (row) => (
        <Badge variant="light" color="cyan" tt="none">
          {labels.activityType(row.summary?.activityType ?? 0)}
        </Badge>
      ),
    },
    { key: 'date', label: t('week.fields.date'), render: (row) => row.summary?.date ?? '—' },
    header.author,
    {
      key: 'collects',
      label: t('week.fields.collectCount'),
      render: (row) => (
        <Group gap={4} wrap="nowrap">
          <IconStar size={14} />
          <Text size="sm">{row.collectCount ?? 0}</Text>
        </Group>
      ),
    },
  ];
}

function CollectButton({ row, reload }: { row: PlanRow; reload: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const label = row.collected ? t('week.plan.uncollect') : t('week.plan.collect');
  return (
    <IconAction
      label={label}
      color="orange"
      loading={busy}
      data-testid="list-collect"
      onClick={() => {
        setBusy(true);
        const call = row.collected ? planApi.cancelCollection(row.id) : planApi.collect(row.id);
        void actThen(call, row.collected ? t('week.plan.uncollected') : t('week.plan.collected'), reload).finally(() =>
          setBusy(false),
        );
      }}
    >
      {row.collected ? <IconStarFilled size={18} /> : <IconStar size={18} />}
    </IconAction>
  );
}

/** 优秀教案 (`week_excellent_list`): excellent plans in scope; collect, or unmark (reviewers). */
export function ExcellentPlansPage() {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const canUnmark = usePermission({ code: 'week_excellent' });
  return (
    <RecordList<PlanRow>
      title={t('menu.week_excellent_list')}
      intro={t('week.list.excellentIntro')}
      fetch={(q, f) => planApi.excellent(q, f)}
      filters={['title', 'classId', 'semester', 'domain', 'activityType', 'authorName']}
      columns={planColumns(t, labels)}
      actions={(row, reload) => (
        <>
          <CollectButton row={row} reload={reload} />
          {canUnmark && (
            <IconAction
              label={t('week.plan.unmarkExcellent')}
              color="yellow"
              onClick={() => void actThen(planApi.unmarkExcellent(row.id), t('week.plan.unmarked'), reload)}
            >
              <IconAward size={18} />
            </IconAction>
          )}
        </>
      )}
      data-testid="week-excellent"
    />
  );
}

/** 我的收藏 (`week_favorite`): my favourite plans; cancel a collection. */
export function FavouritePlansPage() {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  return (
    <RecordList<PlanRow>
      title={t('menu.week_favorite')}
      intro={t('week.list.favoriteIntro')}
      fetch={(q, f) => planApi.favourites(q, f)}
      filters={['title', 'domain', 'activityType', 'authorName']}
      columns={planColumns(t, labels)}
      actions={(row, reload) => <CollectButton row={{ ...row, collected: true }} reload={reload} />}
      data-testid="week-favorite"
    />
  );
}
