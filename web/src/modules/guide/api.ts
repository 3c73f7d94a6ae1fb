import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** The families whose records name children and tag 《指南》 goals. */
export type GuideKind = 'observation' | 'observation_regional' | 'hearken';

export interface ChildRecord {
  id: string;
  kind: GuideKind;
  status: string;
  title: string;
  date: string;
  authorName: string;
  className: string;
  goals: string[];
  photos: Array<{ attachId: string; link: string; thumbLink: string }>;
  createTime: string;
}

interface GoalInfo {
  code: string;
  domain: string;
  name: string;
  nameEn: string;
  title: string;
}

export interface Coverage {
  child: { id: string; name: string; classId: string; className: string; studentNo: string };
  semester: string;
  from: string;
  to: string;
  records: number;
  domains: Array<{
    code: string;
    name: string;
    nameEn: string;
    title: string;
    count: number;
    goalsObserved: number;
    goalsTotal: number;
  }>;
  goals: Array<GoalInfo & { count: number }>;
  gaps: GoalInfo[];
}

export interface GuideDashboardData {
  semester: string;
  weekStart: string;
  weekEnd: string;
  classes: Array<{
    classId: string;
    className: string;
    week: number;
    semester: number;
    domains: Array<{ code: string; title: string; records: number; goals: number; goalsTotal: number }>;
  }>;
  teachers: Array<{ authorId: string; authorName: string; week: number; semester: number }>;
  asOf: string;
}

interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

const PAGE = 30;

/** A child's goals and domains observed this semester, and the gaps (`GET /api/guide/child/coverage`). */
export function useCoverage(studentId: string, lang: string) {
  return useQuery({
    queryKey: ['guide', 'coverage', studentId, lang],
    queryFn: async () =>
      (await http.get<Coverage>('/guide/child/coverage', { studentId }, { notify: false })).data as Coverage,
    retry: false,
  });
}

/** The records naming a child, newest first, 30 at a time (`GET /api/guide/child/records`). */
export function useChildRecords(studentId: string) {
  return useInfiniteQuery({
    queryKey: ['guide', 'records', studentId],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (
        await http.get<Page<ChildRecord>>(
          '/guide/child/records',
          { studentId, current: pageParam, size: PAGE },
          {
            notify: false,
          },
        )
      ).data as Page<ChildRecord>,
    getNextPageParam: (last) => (last.current * last.size < last.total ? last.current + 1 : undefined),
    retry: false,
  });
}

/** The home page's observation figures (`GET /api/guide/dashboard`). */
export function useGuideDashboard(lang: string) {
  return useQuery({
    queryKey: ['guide', 'dashboard', lang],
    queryFn: async () =>
      (await http.get<GuideDashboardData>('/guide/dashboard', {}, { notify: false })).data as GuideDashboardData,
    retry: false,
  });
}
