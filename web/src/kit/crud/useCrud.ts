import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { crudApi, crudKeys, dictionary } from './api';
import { type CrudColumn, type CrudDefinition, dictSource, type FieldOption } from './define';

/** The resource's list for these parameters; the previous page stays on screen while the next loads. */
export function useCrudList(def: CrudDefinition, params: Record<string, string | number>) {
  const api = useMemo(() => crudApi(def.resource, def.listPath), [def.resource, def.listPath]);
  return useQuery({
    queryKey: crudKeys.list(def.resource, { path: def.listPath ?? 'list', ...params }),
    queryFn: () => api.list(params),
    placeholderData: keepPreviousData,
  });
}

/** One record, when `id` is set (edit and view dialogs). */
export function useCrudDetail(def: CrudDefinition, id: string | null) {
  const api = useMemo(() => crudApi(def.resource), [def.resource]);
  return useQuery({
    queryKey: crudKeys.detail(def.resource, id ?? ''),
    queryFn: () => api.detail(id as string),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** Submit and remove; each refreshes every cached list and detail of the resource once it succeeded. */
export function useCrudMutations(def: CrudDefinition) {
  const client = useQueryClient();
  const api = useMemo(() => crudApi(def.resource), [def.resource]);
  const onSuccess = () => client.invalidateQueries({ queryKey: crudKeys.all(def.resource) });
  const submit = useMutation({ mutationFn: api.submit, onSuccess });
  const remove = useMutation({ mutationFn: api.remove, onSuccess });
  const action = useMutation({
    mutationFn: ({ path, id }: { path: string; id: string }) => api.action(path, id),
    onSuccess,
  });
  return { submit, remove, action };
}

/** A select's options: its dictionary's entries when it names one and the server has it, else its own. */
export function useOptions(column: CrudColumn): readonly FieldOption[] | undefined {
  const source = dictSource(column.dict);
  const dict = useQuery({
    queryKey: crudKeys.dict(source?.path ?? '', source?.code ?? ''),
    queryFn: () => dictionary(source?.path ?? '', source?.code ?? ''),
    enabled: source !== null,
    staleTime: 5 * 60_000,
  });
  return useMemo(() => {
    const entries = dict.data ?? [];
    // A dictionary's labels are the server's words (its language), not i18n keys.
    if (entries.length > 0) return entries.map((e) => ({ value: e.dictKey, text: e.dictValue }));
    return column.options;
  }, [dict.data, column.options]);
}

/** One level of a lazy tree: the top level, or the children of `parent` once it is expanded. */
export function useCrudTree(def: CrudDefinition, params: Record<string, string>) {
  const api = useMemo(() => crudApi(def.resource), [def.resource]);
  const path = def.tree?.path ?? 'lazy-tree';
  return useQuery({
    queryKey: crudKeys.tree(def.resource, { path, ...params }),
    queryFn: () => api.tree(path, params),
  });
}
