import { Anchor, Badge, Divider, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconInbox, IconMessage2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { bellListClasses, HeaderBell } from '../../../components/HeaderBell/HeaderBell';
import { type InboxMessage, messageHref, useInbox, useInboxRead, useInboxUnread } from '../api';

/** One message as a row: what happened to which record, by whom, the reviewer's comment. */
function MessageRow({ m, onOpen }: { m: InboxMessage; onOpen: (m: InboxMessage) => void }) {
  const { t } = useTranslation();
  const title = m.title || t('inbox.untitled');
  return (
    <UnstyledButton
      className={bellListClasses.row}
      onClick={() => onOpen(m)}
      data-testid="inbox-item"
      data-event={m.event}
      data-read={m.read ? 'true' : 'false'}
    >
      <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
        <Text size="sm" fw={m.read ? 400 : 600} lineClamp={2} style={{ flex: 1, minWidth: 0 }}>
          {t(`inbox.events.${m.event}`, { actor: m.actorName, title })}
        </Text>
        {!m.read && (
          <Badge size="xs" color="red" variant="light" tt="none" style={{ flexShrink: 0 }}>
            {t('inbox.unread')}
          </Badge>
        )}
      </Group>
      {m.comment && (
        <Text size="xs" c={m.event === 'returned' ? 'red.7' : 'dimmed'} lineClamp={2} data-testid="inbox-item-comment">
          {t('inbox.comment', { comment: m.comment })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {m.createTime}
      </Text>
    </UnstyledButton>
  );
}

/**
 * The top bar's messages: what happened to the user's records (returned, approved, marked
 * excellent, collected; a reviewer: resubmitted), the unread count on the icon. Opening one
 * marks it read and goes to the record.
 */
export function InboxBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const count = useInboxUnread().data ?? 0;
  const latest = useInbox(10);
  const read = useInboxRead();
  const label = count ? t('inbox.bellCount', { count }) : t('inbox.bell');
  const messages = latest.data?.records ?? [];
  const openMessage = (m: InboxMessage) => {
    setOpen(false);
    if (!m.read) read.mutate([m.id]);
    const href = messageHref(m);
    if (href) navigate(href);
  };
  return (
    <HeaderBell
      icon={<IconMessage2 size={20} />}
      label={label}
      count={count}
      opened={open}
      onChange={setOpen}
      testId="inbox-bell"
      width={360}
    >
      <Group justify="space-between" px={10} pb={6}>
        <Text fw={600} size="sm">
          {t('inbox.title')}
        </Text>
        {count > 0 && (
          <Anchor component="button" size="xs" onClick={() => read.mutate(undefined)} data-testid="inbox-read-all">
            {t('inbox.readAll')}
          </Anchor>
        )}
      </Group>
      <Divider mb={4} />
      <div className={bellListClasses.scroll}>
        {messages.length === 0 ? (
          <Stack align="center" gap={6} py="lg" data-testid="inbox-empty">
            <IconInbox size={32} stroke={1.4} color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed">
              {t('inbox.none')}
            </Text>
          </Stack>
        ) : (
          <Stack gap={2}>
            {messages.map((m) => (
              <MessageRow key={m.id} m={m} onOpen={openMessage} />
            ))}
          </Stack>
        )}
      </div>
    </HeaderBell>
  );
}
