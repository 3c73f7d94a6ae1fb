import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** A notice as a reader's calls answer it (`listNotice`). */
export interface ReaderNotice {
  id: string;
  title: string;
  category: string;
  categoryName: string;
  releaseTime: string | null;
  content: string;
  read: boolean;
}

interface Page<T> {
  records: T[];
  total: number;
}

const BASE = '/blade-desk/notice';
/** Every reader's query starts with this key: a read refreshes them all. */
const KEY = ['notice', 'reader'] as const;
/** How often the unread count is asked again while the app is open. */
const POLL_MS = 60_000;

/** The notices that reach the signed-in user, newest first (`unread`: only those not read yet). */
export function useMyNotices(size: number, unread = false) {
  return useQuery({
    queryKey: [...KEY, 'list', size, unread],
    queryFn: async () =>
      (await http.get<Page<ReaderNotice> | null>(`${BASE}/listNotice`, { current: 1, size, unread }, { notify: false }))
        .data ?? { records: [], total: 0 },
    refetchInterval: POLL_MS,
  });
}

/** How many notices the signed-in user has not read. */
export function useUnreadCount() {
  return useQuery({
    queryKey: [...KEY, 'unread'],
    queryFn: async () =>
      (await http.get<number | null>(`${BASE}/unread-count`, undefined, { notify: false })).data ?? 0,
    refetchInterval: POLL_MS,
  });
}

/** Marks a notice read (idempotent on the server); the reader's lists and count refresh. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await http.post<number>(`${BASE}/read`, undefined, { params: { id } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
