import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { crudApi, crudKeys, dictionary, remoteOptions } from './api';
import { type CrudColumn, type CrudDefinition, dictSource, type FieldOption } from './define';

/** The calls of a definition: its own names (`paths`), a list path of its own (`listPath`) first. */
export const callsOf = (def: CrudDefinition) => ({ ...def.paths, ...(def.listPath ? { list: def.listPath } : {}) });

/** The resource's list for these parameters; the previous page stays on screen while the next loads. */
export function useCrudList(def: CrudDefinition, params: Record<string, string | number>) {
  const api = useMemo(() => crudApi(def.resource, callsOf(def)), [def]);
  return useQuery({
    queryKey: crudKeys.list(def.resource, { path: def.listPath ?? 'list', ...params }),
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
  const action = useMutation({
    mutationFn: ({ path, params }: { path: string; params: Record<string, string | number> }) =>
      api.action(path, params),
    onSuccess,
  });
  const command = useMutation({
    mutationFn: ({ path, body }: { path: string; body: Record<string, unknown> }) => api.command(path, body),
    onSuccess,
  });
  return { submit, remove, action, command };
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
  // Options from a call of the API (`optionsFrom`).
  const from = column.optionsFrom;
  const remote = useQuery({
    queryKey: ['crud', 'options', from?.url ?? '', from?.params ?? {}],
    queryFn: () => remoteOptions(from as NonNullable<typeof from>),
    enabled: Boolean(from),
    staleTime: 60_000,
  });
  return useMemo(() => {
    if (from) return remote.data ?? [];
    const entries = dict.data ?? [];
    // A dictionary's labels are the server's words (its language), not i18n keys.
    if (entries.length > 0) return entries.map((e) => ({ value: e.dictKey, text: e.dictValue }));
    return column.options;
  }, [dict.data, column.options, from, remote.data]);
}

/**
 * One level of a lazy tree: the top level, or the children of `parent` once it is expanded;
 * with `path`, another tree call (the whole tree a search filters). Off when `enabled` is false.
 */
export function useCrudTree(
  def: CrudDefinition,
  params: Record<string, string | number>,
  path = def.tree?.path ?? 'lazy-tree',
  enabled = true,
) {
  const api = useMemo(() => crudApi(def.resource), [def.resource]);
  return useQuery({
    queryKey: crudKeys.tree(def.resource, { path, ...params }),
    queryFn: () => api.tree(path, params),
    enabled,
  });
}
