import { Alert, Anchor, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import type { HistoryEntry } from '@sprout/contracts';
import {
  IconArrowBackUp,
  IconAward,
  IconCheck,
  IconEdit,
  IconHistory,
  IconFileMinus,
  IconFilePlus,
  IconPlus,
  IconSend,
  IconStar,
  IconTrash,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePermission } from '../../../permissions/Can';
import type { FamilyApi } from '../api';
import type { RecordFamily } from '../define';
import {
  describePath,
  type EventKey,
  eventColor,
  eventKey,
  familyPathLabels,
  flattenChange,
  formatValue,
  type PathLabels,
} from '../model/history';
import { AUDIT_STREAM_PATH } from '../paths';
import { FileName } from './FilesField';
import classes from './HistoryTimeline.module.css';

const ICONS: Record<EventKey, ReactNode> = {
  created: <IconPlus size={14} />,
  updated: <IconEdit size={14} />,
  submitted: <IconSend size={14} />,
  approved: <IconCheck size={14} />,
  returned: <IconArrowBackUp size={14} />,
  reviewEdited: <IconEdit size={14} />,
  excellent: <IconAward size={14} />,
  unexcellent: <IconAward size={14} />,
  collected: <IconStar size={14} />,
  uncollected: <IconStar size={14} />,
  deleted: <IconTrash size={14} />,
  childAdded: <IconFilePlus size={14} />,
  childRemoved: <IconFileMinus size={14} />,
};

const namesOf = (people: { id: string; name: string }[]) => people.map((p) => p.name || p.id).join('、');

/**
 * Who an entry names: a co-edited revision the users whose updates made its changes (each
 * change's, else the revision's authors), never only the one whose save carried them.
 */
export function entryPeople(entry: HistoryEntry): string {
  if (entry.type === 'DraftUpdated' || entry.type === 'RecordSubmitted') {
    const seen = new Map<string, { id: string; name: string }>();
    for (const c of entry.changes) for (const a of c.authors ?? []) seen.set(a.id, a);
    if (seen.size) return namesOf([...seen.values()]);
    if (entry.type === 'DraftUpdated' && entry.authors?.length) return namesOf(entry.authors);
  }
  return entry.actorName || entry.actorId;
}

type Tx = (key: string, values?: Record<string, unknown>) => string;

/** Attachment ids as their names (a removed or added file in a record's history). */
function FileNames({ value }: { value: unknown }) {
  const ids = (Array.isArray(value) ? value : value ? [value] : []).map(String);
  if (ids.length === 0) return null;
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 ? '、' : ''}
          <FileName id={id} />
        </span>
      ))}
    </>
  );
}

function Changes({ entry, labels, tx }: { entry: HistoryEntry; labels: PathLabels; tx: Tx }) {
  const [open, setOpen] = useState(entry.changes.length <= 3);
  const changes = entry.changes.flatMap((c) => flattenChange(c));
  if (changes.length === 0) return null;
  return (
    <Stack gap={4} mt={4}>
      <Anchor component="button" size="xs" onClick={() => setOpen((v) => !v)} ta="left" data-testid="history-toggle">
        {open ? tx('hideChanges') : `${tx('changes', { count: changes.length })} · ${tx('showChanges')}`}
      </Anchor>
      {open && (
        <Stack gap={6} className={classes.changes} data-testid="history-changes">
          {changes.map((change, i) => {
            const files = labels.files?.(change.path) ?? false;
            const shown = (value: unknown) =>
              files && formatValue(value) ? <FileNames value={value} /> : formatValue(value);
            const before = shown(change.before);
            const after = shown(change.after);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: changes have no identity beyond their order
              <div key={i} className={classes.change} data-testid="history-change">
                <Text size="xs" c="dimmed" className={classes.path} data-testid="history-change-field">
                  {describePath(change.path, labels)}
                  {change.authors?.length ? (
                    <span data-testid="history-change-authors">
                      {' · '}
                      {tx('changeBy', { names: namesOf(change.authors) })}
                    </span>
                  ) : null}
                </Text>
                <Text size="xs">
                  <span className={classes.before}>{before || tx('emptyValue')}</span>
                  <span className={classes.arrow}> → </span>
                  <span className={classes.after}>{after || tx('emptyValue')}</span>
                </Text>
              </div>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * A record's timeline, newest first: who did what when, a review's comment, and each edit's
 * changed fields (before → after, named by `labels`). `texts` is the i18n prefix of its wording
 * (`loading`, `failed`, `empty`, `changes`, `showChanges`, `hideChanges`, `comment`, `version`,
 * `emptyValue`, `events.<key>`; the kit's `records.history` by default); `extra` adds a line
 * under an entry (the week's co-authors).
 */
export function HistoryTimeline({
  queryKey,
  load,
  labels,
  texts = 'records.history',
  extra,
  streamId,
}: {
  queryKey: readonly unknown[];
  load: () => Promise<HistoryEntry[]>;
  labels: PathLabels;
  texts?: string;
  extra?: (entry: HistoryEntry) => ReactNode;
  /** The record's event stream: those holding 审计追溯's `audit_view` get a link to its story there. */
  streamId?: string;
}) {
  const { t } = useTranslation();
  const mayAudit = usePermission({ code: 'audit_view' });
  const tx: Tx = (key, values) => String(t(`${texts}.${key}` as never, values as never));
  const history = useQuery({
    queryKey: ['record-history', ...queryKey],
    queryFn: load,
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (history.isPending) {
    return (
      <Group gap="xs" c="dimmed">
        <Loader size="xs" />
        <Text size="sm">{tx('loading')}</Text>
      </Group>
    );
  }
  if (history.isError && !history.data) return <Alert color="red">{tx('failed')}</Alert>;
  const entries = [...(history.data ?? [])].reverse();
  if (entries.length === 0) return <Text c="dimmed">{tx('empty')}</Text>;
  return (
    <>
      {streamId && mayAudit && (
        <Anchor
          component={Link}
          to={`${AUDIT_STREAM_PATH}?id=${encodeURIComponent(streamId)}`}
          size="sm"
          mb="sm"
          display="inline-flex"
          style={{ alignItems: 'center', gap: 4 }}
          data-testid="history-audit-link"
        >
          <IconHistory size={14} />
          {tx('audit')}
        </Anchor>
      )}
      <Timeline bulletSize={24} lineWidth={2} data-testid="history">
        {entries.map((entry) => {
          const key = eventKey(entry.type);
          return (
            <Timeline.Item
              key={`${entry.version}-${entry.type}-${entry.time}`}
              bullet={key ? ICONS[key] : <IconEdit size={14} />}
              color={eventColor(entry.type)}
              data-testid="history-entry"
              data-type={entry.type}
              data-event={key ?? entry.type}
              title={
                <Group gap={6}>
                  <Text fw={600} size="sm" data-testid="history-actor">
                    {entryPeople(entry)}
                  </Text>
                  <Text size="sm" data-testid="history-what">
                    {key
                      ? tx(
                          `events.${key}`,
                          entry.child
                            ? { kind: tx(`childKinds.${entry.child.kind}`), title: entry.child.title }
                            : undefined,
                        )
                      : entry.type}
                  </Text>
                </Group>
              }
            >
              <Text size="xs" c="dimmed">
                {entry.time} · {tx('version', { version: entry.version })}
              </Text>
              {extra?.(entry)}
              {entry.comment && (
                <Text size="sm" mt={4} className={classes.comment}>
                  {tx('comment', { comment: entry.comment })}
                </Text>
              )}
              <Changes entry={entry} labels={labels} tx={tx} />
            </Timeline.Item>
          );
        })}
      </Timeline>
    </>
  );
}

/** A family record's timeline, its changes named by the family's form. */
export function FamilyHistory({
  family,
  api,
  id,
  version,
}: {
  family: RecordFamily;
  api: FamilyApi;
  id: string;
  version: number;
}) {
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the labels follow the language
  const labels = useMemo(() => familyPathLabels(family, (key) => String(t(key as never))), [family, t, i18n.language]);
  if (!api.has('history')) return null;
  return (
    <HistoryTimeline
      queryKey={[family.kind, id, version]}
      load={() => api.history(id, { notify: false })}
      labels={labels}
      streamId={id}
    />
  );
}
