import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { recordDetailsHref } from '../../kit/records/registry';
import { http } from '../../lib/http';

/** What happened to one of the user's records (`GET /api/inbox/list`). */
export interface InboxMessage {
  id: string;
  recordId: string;
  /** A lesson or day plan's week; empty otherwise. */
  parentId: string;
  kind: string;
  event: 'returned' | 'approved' | 'excellent' | 'collected' | 'resubmitted';
  title: string;
  actorName: string;
  comment: string;
  createTime: string | null;
  read: boolean;
}

interface Page<T> {
  records: T[];
  total: number;
}

const BASE = '/inbox';
/** Every inbox query starts with this key: a read (or a review elsewhere in the app) refreshes them all. */
export const INBOX_KEY = ['inbox'] as const;
/** How often the unread count is asked again while the app is open. */
const POLL_MS = 60_000;

/** The signed-in user's latest messages, newest first. */
export function useInbox(size: number) {
  return useQuery({
    queryKey: [...INBOX_KEY, 'list', size],
    queryFn: async () =>
      (await http.get<Page<InboxMessage> | null>(`${BASE}/list`, { current: 1, size }, { notify: false })).data ?? {
        records: [],
        total: 0,
      },
    refetchInterval: POLL_MS,
  });
}

/** How many of the signed-in user's messages are unread. */
export function useInboxUnread() {
  return useQuery({
    queryKey: [...INBOX_KEY, 'unread'],
    queryFn: async () =>
      (await http.get<number | null>(`${BASE}/unread-count`, undefined, { notify: false })).data ?? 0,
    refetchInterval: POLL_MS,
  });
}

/** Marks messages read (`ids`), or all of them (no ids); the list and count refresh. */
export function useInboxRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids?: string[]) =>
      ids
        ? (await http.post<number>(`${BASE}/read`, undefined, { params: { ids: ids.join(',') } })).data
        : (await http.post<number>(`${BASE}/read-all`)).data,
    onSuccess: () => client.invalidateQueries({ queryKey: INBOX_KEY }),
  });
}

const q = (id: string) => `?id=${encodeURIComponent(id)}`;
/** The detail screen of an observation family's record, by kind. */

/**
 * Where a message opens: a returned week its editor (the comment shown at the top), any other
 * week step its details (the reviewer reviews there), any other record where its context
 * says it opens (a lesson or day plan its week, a visit's item its visit: kit/records/registry.ts).
 */
export function messageHref(m: Pick<InboxMessage, 'kind' | 'recordId' | 'parentId' | 'event'>): string | null {
  if (m.kind === 'week')
    return m.event === 'returned' ? `/week/week/${q(m.recordId)}` : `/weekdetails/details${q(m.recordId)}`;
  return recordDetailsHref(m.kind, m.recordId, m.parentId);
}
