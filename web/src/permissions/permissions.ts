import { type AnyMongoAbility, createMongoAbility } from '@casl/ability';
import { type PackRule, unpackRules } from '@casl/ability/extra';
import { createStore } from '../lib/createStore';

/** `GET /blade-system/menu/buttons`: a tree of menus and their buttons. */
export interface ButtonNode {
  id?: string;
  parentId?: string;
  code: string;
  name?: string;
  category?: number;
  children?: ButtonNode[];
}

/** Spec §3, §6: the leaf codes of the buttons tree, as a map of code → true. */
export function collectButtonCodes(nodes: readonly ButtonNode[] | null | undefined, extra: readonly string[] = []) {
  const map: Record<string, true> = {};
  const walk = (list: readonly ButtonNode[]) => {
    for (const node of list) {
      if (!node || typeof node !== 'object') continue;
      if (node.children && node.children.length > 0) walk(node.children);
      // A menu (category 1) with no buttons is a leaf of the tree but not a permission.
      else if (typeof node.code === 'string' && node.code && node.category !== 1) map[node.code] = true;
    }
  };
  walk(nodes ?? []);
  for (const code of extra) if (typeof code === 'string' && code) map[code] = true;
  return map;
}

/** Builds the CASL ability from the packed rules user-info carries; null when absent or unreadable. */
export function abilityFromPacked(packed: unknown): AnyMongoAbility | null {
  if (!Array.isArray(packed)) return null;
  try {
    return createMongoAbility(unpackRules(packed as PackRule<never>[]));
  } catch {
    return null;
  }
}

export interface PermissionState {
  buttons: Record<string, true>;
  /** The server's rules; null until (or unless) it sends them. */
  ability: AnyMongoAbility | null;
}

export const permissionStore = createStore<PermissionState>({ buttons: {}, ability: null });

export function resetPermissions(): void {
  permissionStore.set({ buttons: {}, ability: null });
}

/** A button code `resource_action` as (action, subject): the last `_` splits them. */
export function splitCode(code: string): { action: string; subject: string } | null {
  const at = code.lastIndexOf('_');
  if (at <= 0 || at === code.length - 1) return null;
  return { subject: code.slice(0, at), action: code.slice(at + 1) };
}

/**
 * May the user do it? `code` is a button code (`week_add`); `action`/`subject` a CASL
 * pair (`add`, `week`). The button map answers first; the server's rules, when present,
 * answer the rest. The server still decides every call.
 */
export function isAllowed(
  state: PermissionState,
  query: { code?: string; action?: string; subject?: string },
): boolean {
  const code = query.code ?? (query.action && query.subject ? `${query.subject}_${query.action}` : undefined);
  if (code && state.buttons[code]) return true;
  if (!state.ability) return false;
  const pair =
    query.action && query.subject ? { action: query.action, subject: query.subject } : code ? splitCode(code) : null;
  if (!pair) return false;
  return state.ability.can(pair.action, pair.subject) || (code ? state.ability.can(code, 'Button') : false);
}
