import { ActionIcon, Divider, Indicator, Popover, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ReaderNotice, useMarkRead, useMyNotices, useUnreadCount } from '../api';
import { NoticeDialog } from './NoticeDialog';
import classes from './NoticeList.module.css';
import { NoticeList } from './NoticeList';

/** The top bar's bell: the unread count on it, a list of the latest notices under it; a click opens one and marks it read. */
export function NoticeBell() {
  const { t } = useTranslation();
  const [listOpen, setListOpen] = useState(false);
  const count = useUnreadCount().data ?? 0;
  const latest = useMyNotices(10);
  const markRead = useMarkRead();
  const [open, setOpen] = useState<ReaderNotice | null>(null);
  const label = count ? t('notice.reader.bellCount', { count }) : t('notice.reader.bell');
  return (
    <>
      <Popover opened={listOpen} onChange={setListOpen} width={340} position="bottom-end" shadow="md" withinPortal>
        <Popover.Target>
          <Tooltip label={label} openDelay={300} disabled={listOpen}>
            <Indicator
              label={count > 99 ? '99+' : count}
              size={16}
              color="red"
              offset={7}
              disabled={count === 0}
              data-testid="notice-bell-count"
            >
              <ActionIcon
                variant="subtle"
                size={36}
                radius="xl"
                aria-label={label}
                onClick={() => setListOpen((o) => !o)}
                data-testid="notice-bell"
                data-count={count}
              >
                <IconBell size={20} />
              </ActionIcon>
            </Indicator>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown p="xs" data-testid="notice-bell-list">
          <Text fw={600} size="sm" px={10} pb={6}>
            {t('notice.reader.latest')}
          </Text>
          <Divider mb={4} />
          {/* A plain scrolling box: ScrollArea's content is a table and would not let a row truncate. */}
          <div className={classes.scroll}>
            <NoticeList
              notices={latest.data?.records ?? []}
              empty={t('notice.reader.none')}
              onOpen={(n) => {
                setListOpen(false);
                setOpen(n);
                if (!n.read) markRead.mutate(n.id);
              }}
              testId="bell-notices"
            />
          </div>
        </Popover.Dropdown>
      </Popover>
      <NoticeDialog notice={open} onClose={() => setOpen(null)} />
    </>
  );
}
