import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { familyApi, lookupApi, type Option } from './api';
import { pathOf, type FieldDef, type RecordFamilyInput } from './define';
import { type GoalGroup, readGuideTree } from './goals';

const STALE = 5 * 60_000;

/** A select's options: its business dictionary, else the field's own options in the user's language. */
export function useFieldOptions(field: FieldDef): Option[] {
  const { t } = useTranslation();
  const dict = useQuery({
    queryKey: ['dict-biz', field.dict],
    queryFn: () => lookupApi.dictionary(field.dict ?? ''),
    enabled: Boolean(field.dict),
    staleTime: STALE,
    retry: false,
  });
  const own = (field.options ?? []).map((o) => ({ value: o.value, label: String(t(o.label as never)) }));
  if (!dict.data?.length) return own;
  // The dictionary decides which keys exist; a key the field also names shows in the user's language.
  return dict.data.map((o) => own.find((x) => x.value === o.value) ?? o);
}

/** The caller's classes (`mine`: the ones they teach, for the form) or every class in their scope (filters). */
export function useClassOptions(which: 'mine' | 'scope'): Option[] {
  const classes = useQuery({
    queryKey: ['record-classes', which],
    queryFn: which === 'mine' ? lookupApi.myClasses : lookupApi.scopeClasses,
    staleTime: STALE,
    retry: false,
  });
  return classes.data ?? [];
}

/** The children of the chosen class (none before a class is chosen). */
export function useChildOptions(classId: string): { options: Option[]; loading: boolean } {
  const children = useQuery({
    queryKey: ['record-children', classId],
    queryFn: () => lookupApi.children(classId),
    enabled: Boolean(classId),
    staleTime: STALE,
    retry: false,
  });
  return { options: classId ? (children.data ?? []) : [], loading: children.isLoading };
}

/** The Guidelines' goals grouped for the picker, from the served tree (`GET /api/guide/tree`). */
export function useGoalGroups(): { groups: GoalGroup[] } {
  const { i18n } = useTranslation();
  const english = (i18n.resolvedLanguage ?? i18n.language).startsWith('en');
  const tree = useQuery({ queryKey: ['guide-tree'], queryFn: lookupApi.guideTree, staleTime: STALE, retry: false });
  return { groups: tree.data ? readGuideTree(tree.data, english) : [] };
}

/** A family's picker choices (`teachers`: the kindergarten's people, `depts`), none when it has no such path. */
export function usePicks(family: RecordFamilyInput, op: 'teachers' | 'depts'): Option[] {
  const path = pathOf(family, op);
  const picks = useQuery({
    queryKey: ['record-picks', path?.url],
    queryFn: () => familyApi(family).picks(op),
    enabled: Boolean(path),
    staleTime: STALE,
    retry: false,
  });
  return picks.data ?? [];
}

/** Another family's records to choose from (a `record` field's `source`). */
export function useRecordOptions(field: FieldDef): Option[] {
  const records = useQuery({
    queryKey: ['record-options', field.source],
    queryFn: () => lookupApi.records(field.source ?? ''),
    enabled: Boolean(field.source),
    staleTime: 30_000,
    retry: false,
  });
  return records.data ?? [];
}
