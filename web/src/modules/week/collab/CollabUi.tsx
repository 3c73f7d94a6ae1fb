import { Alert, Avatar, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCloudOff, IconInfoCircle, IconLock, IconRefresh } from '@tabler/icons-react';
import { formatDate } from '../../../lib/date';
import { useWeekLabels } from '../hooks/useWeekLabels';
import { describePath } from '../model/history';
import classes from './collab.module.css';
import { useCollabT } from './i18n';
import type { CollabPeer, CollabStatus, CollabWeek } from './types';
import { useCollab } from './useCollab';

/**
 * The co-edited editor's bar: the indicator (已保存 / 同步中… / 离线（修改已保存在本机） /
 * 只读) and who is here; and the notice shown when the week turned read-only.
 */

function statusView(status: CollabStatus, tc: ReturnType<typeof useCollabT>) {
  switch (status.kind) {
    case 'connecting':
      return { icon: <Loader size={14} />, color: 'dimmed', text: tc('status.connecting'), tip: '' };
    case 'syncing':
      return { icon: <Loader size={14} />, color: 'dimmed', text: tc('status.syncing'), tip: tc('status.syncingTip') };
    case 'saved':
      return {
        icon: <IconCircleCheck size={16} />,
        color: 'teal',
        text: tc('status.saved'),
        tip: tc('status.savedTip', { time: formatDate(status.at, 'HH:mm:ss') }),
      };
    case 'offline':
      return status.local
        ? {
            icon: <IconCloudOff size={16} />,
            color: 'orange',
            text: tc('status.offline'),
            tip: tc('status.offlineTip'),
          }
        : {
            icon: <IconCloudOff size={16} />,
            color: 'red',
            text: tc('status.offlineNoLocal'),
            tip: tc('status.offlineNoLocalTip'),
          };
    case 'readOnly':
      return {
        icon: <IconLock size={16} />,
        color: status.unsaved ? 'red' : 'orange',
        text: status.unsaved ? tc('status.readOnlyUnsaved') : tc('status.readOnly'),
        tip: tc('status.readOnlyTip'),
      };
    case 'denied':
      return { icon: <IconLock size={16} />, color: 'red', text: tc('status.denied'), tip: tc('status.deniedTip') };
    case 'unavailable':
      return {
        icon: <IconInfoCircle size={16} />,
        color: 'dimmed',
        text: tc('status.direct'),
        tip: tc('status.directTip'),
      };
    case 'replaced':
      return { icon: <IconRefresh size={16} />, color: 'dimmed', text: tc('status.replaced'), tip: '' };
  }
}

/** The indicator (`data-testid="save-status"`, `data-kind` = the status). */
export function CollabIndicator({ status }: { status: CollabStatus }) {
  const tc = useCollabT();
  const view = statusView(status, tc);
  return (
    <Tooltip label={view.tip} disabled={!view.tip} multiline maw={320}>
      <Group
        gap={6}
        wrap="nowrap"
        c={view.color}
        className={classes.status}
        data-testid="save-status"
        data-kind={status.kind}
        aria-live="polite"
      >
        {view.icon}
        <Text size="sm" c={view.color} truncate maw={320}>
          {view.text}
        </Text>
      </Group>
    </Tooltip>
  );
}

/** Up to two characters naming a person: the end of a Chinese name, else initials. */
export function initialsOf(name: string): string {
  const trimmed = name.trim();
  if (/[\u3400-\u9fff]/.test(trimmed)) return trimmed.length <= 2 ? trimmed : trimmed.slice(-2);
  const words = trimmed.split(/\s+/).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase() ?? '')
      .join('') || '?'
  );
}

/** Who is here: one avatar per person (this user first), the field each is in as a tooltip. */
export function CollabPeers({ peers }: { peers: CollabPeer[] }) {
  const tc = useCollabT();
  const labels = useWeekLabels();
  if (peers.length === 0) return null;
  return (
    <Tooltip.Group openDelay={150} closeDelay={80}>
      <Avatar.Group spacing={6} className={classes.peers} data-testid="collab-peers" aria-label={tc('presence.label')}>
        {peers.map((peer) => {
          const name = peer.self ? tc('presence.you', { name: peer.user.name }) : peer.user.name;
          const label = peer.field
            ? tc('presence.inField', { name, field: describePath(peer.field, labels.pathLabels) })
            : tc('presence.here', { name });
          return (
            <Tooltip key={peer.user.id} label={label} withArrow>
              <Avatar
                size={30}
                radius="xl"
                className={`${classes.peer} ${peer.self ? classes.self : ''}`}
                styles={{ placeholder: { background: peer.user.color, color: '#fff', fontSize: 11 } }}
                alt={peer.user.name}
                data-testid="collab-peer"
                data-name={peer.user.name}
                data-self={peer.self || undefined}
                data-field={peer.field ?? undefined}
              >
                {initialsOf(peer.user.name)}
              </Avatar>
            </Tooltip>
          );
        })}
      </Avatar.Group>
    </Tooltip.Group>
  );
}

/** Indicator and people, for the editor's bar. */
export function CollabBar({ collab }: { collab: CollabWeek }) {
  const { status, peers } = useCollab(collab);
  if (!status) return null;
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <CollabIndicator status={status} />
      <CollabPeers peers={peers} />
    </Group>
  );
}

/** What the editor says once about how the week was opened: from the server after a restore, or without live co-editing. */
export type CollabPageNotice = { kind: 'unavailable' } | { kind: 'replaced'; dropped: boolean };

/**
 * The notice of a week opened without live co-editing (not served: saved over HTTP, calm
 * blue), or reopened from the server after its document was restored or reseeded (orange when
 * this device's unsent changes were dropped).
 */
export function CollabPageNoticeAlert({ notice, onClose }: { notice: CollabPageNotice; onClose: () => void }) {
  const tc = useCollabT();
  if (notice.kind === 'unavailable')
    return (
      <Alert
        color="blue"
        variant="light"
        icon={<IconInfoCircle size={18} />}
        title={tc('unavailableTitle')}
        withCloseButton
        closeButtonLabel={tc('dismiss')}
        onClose={onClose}
        data-testid="collab-unavailable"
      >
        <Text size="sm">{tc('unavailableText')}</Text>
      </Alert>
    );
  return (
    <Alert
      color={notice.dropped ? 'orange' : 'blue'}
      variant="light"
      icon={<IconRefresh size={18} />}
      title={tc('replacedTitle')}
      withCloseButton
      closeButtonLabel={tc('dismiss')}
      onClose={onClose}
      data-testid="collab-replaced"
      data-dropped={notice.dropped || undefined}
    >
      <Text size="sm">{tc('replacedText')}</Text>
      {notice.dropped && (
        <Text size="sm" mt={4} fw={500}>
          {tc('replacedDroppedText')}
        </Text>
      )}
    </Alert>
  );
}

/** Shown while the week cannot be edited (submitted meanwhile, access changed, refused). */
export function CollabNotice({ collab }: { collab: CollabWeek }) {
  const tc = useCollabT();
  const { status } = useCollab(collab);
  if (status?.kind !== 'readOnly' && status?.kind !== 'denied') return null;
  const denied = status.kind === 'denied';
  return (
    <Alert
      color={denied ? 'red' : 'orange'}
      icon={<IconLock size={18} />}
      title={denied ? tc('deniedTitle') : tc('readOnlyTitle')}
      data-testid="collab-read-only"
    >
      <Text size="sm">{denied ? tc('deniedText') : tc('readOnlyText')}</Text>
      {status.kind === 'readOnly' && status.unsaved && (
        <Text size="sm" mt={4} fw={500}>
          {tc('readOnlyUnsavedText')}
        </Text>
      )}
    </Alert>
  );
}
