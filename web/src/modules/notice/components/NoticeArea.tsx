import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ReaderNotice, useMarkRead, useMyNotices } from '../api';
import { NoticeDialog } from './NoticeDialog';
import { NoticeList } from './NoticeList';

/** The home page's notice area: the latest notices that reach the user and are unread; a click opens one and marks it read. */
export function NoticeArea() {
  const { t } = useTranslation();
  // A page is 10, 30, 50, 100 or 200 (spec §7): the area shows the first five.
  const mine = useMyNotices(10, true);
  const markRead = useMarkRead();
  const [open, setOpen] = useState<ReaderNotice | null>(null);
  const openOne = (n: ReaderNotice) => {
    setOpen(n);
    if (!n.read) markRead.mutate(n.id);
  };
  return (
    <>
      <NoticeList
        notices={(mine.data?.records ?? []).slice(0, 5)}
        empty={t('notice.reader.noneUnread')}
        onOpen={openOne}
        testId="home-notices"
      />
      <NoticeDialog notice={open} onClose={() => setOpen(null)} />
    </>
  );
}
