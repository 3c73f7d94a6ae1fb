import { Divider, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bellListClasses, HeaderBell } from '../../../components/HeaderBell/HeaderBell';
import { type ReaderNotice, useMarkRead, useMyNotices, useUnreadCount } from '../api';
import { NoticeDialog } from './NoticeDialog';
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
      <HeaderBell
        icon={<IconBell size={20} />}
        label={label}
        count={count}
        opened={listOpen}
        onChange={setListOpen}
        testId="notice-bell"
      >
        <Text fw={600} size="sm" px={10} pb={6}>
          {t('notice.reader.latest')}
        </Text>
        <Divider mb={4} />
        {/* A plain scrolling box: ScrollArea's content is a table and would not let a row truncate. */}
        <div className={bellListClasses.scroll}>
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
      </HeaderBell>
      <NoticeDialog notice={open} onClose={() => setOpen(null)} />
    </>
  );
}
