import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { crudApi, crudKeys, dictionary, remoteOptions } from './api';
import type { CrudColumn, CrudDefinition, FieldOption } from './define';

/** The resource's list for these parameters; the previous page stays on screen while the next loads. */
export function useCrudList(def: CrudDefinition, params: Record<string, string | number>) {
  const api = useMemo(() => crudApi(def.resource, def.paths), [def.resource, def.paths]);
  return useQuery({
    queryKey: crudKeys.list(def.resource, params),
    queryFn: () => api.list(params),
    placeholderData: keepPreviousData,
  });
}

/** One record, when `id` is set (edit and view dialogs). */
export function useCrudDetail(def: CrudDefinition, id: string | null) {
  const api = useMemo(() => crudApi(def.resource, def.paths), [def.resource, def.paths]);
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
  const api = useMemo(() => crudApi(def.resource, def.paths), [def.resource, def.paths]);
  const onSuccess = () => client.invalidateQueries({ queryKey: crudKeys.all(def.resource) });
  // A body with the record's id is an edit (the resource's `update` call, when it has one).
  const submit = useMutation({
    mutationFn: (body: Record<string, unknown>) => api.submit(body, body[def.rowKey ?? 'id'] !== undefined),
    onSuccess,
  });
  const remove = useMutation({ mutationFn: api.remove, onSuccess });
  return { submit, remove };
}

/** A select's options: its dictionary's entries when it names one and the server has it, else its own. */
export function useOptions(column: CrudColumn): readonly FieldOption[] | undefined {
  const code = column.dict;
  const dict = useQuery({
    queryKey: crudKeys.dict(code ?? ''),
    queryFn: () => dictionary(code as string),
    enabled: Boolean(code),
    staleTime: 5 * 60_000,
  });
  // Options from a call of the API (`optionsFrom`).
  const source = column.optionsFrom;
  const remote = useQuery({
    queryKey: ['crud', 'options', source?.url ?? '', source?.params ?? {}],
    queryFn: () => remoteOptions(source as NonNullable<typeof source>),
    enabled: Boolean(source),
    staleTime: 60_000,
  });
  return useMemo(() => {
    if (source) return remote.data ?? [];
    const entries = dict.data ?? [];
    // A dictionary's labels are the server's words (its language), not i18n keys.
    if (entries.length > 0) return entries.map((e) => ({ value: e.dictKey, text: e.dictValue }));
    return column.options;
  }, [dict.data, column.options, source, remote.data]);
}
