import type { ReactNode } from 'react';
import { useStore } from '../lib/createStore';
import { isAllowed, permissionStore } from './permissions';

type CanProps = ({ code: string; I?: never; a?: never } | { I: string; a: string; code?: never }) & {
  /** Render when not allowed instead of nothing. */
  fallback?: ReactNode;
  children: ReactNode;
};

/**
 * Shows its children only when the user may do it (spec §6): `<Can code="week_add">` or
 * `<Can I="add" a="week">`. It hides; the server still decides.
 */
export function Can(props: CanProps) {
  const allowed = usePermission(props.code ? { code: props.code } : { action: props.I, subject: props.a });
  return <>{allowed ? props.children : (props.fallback ?? null)}</>;
}

export function usePermission(query: { code?: string; action?: string; subject?: string }): boolean {
  return useStore(permissionStore, (state) => isAllowed(state, query));
}
