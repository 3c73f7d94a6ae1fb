import { sql } from 'kysely';
import type { AccessClaims } from '@sprout/core/auth/jwt';
import { type Database, readInTenant } from '@sprout/core/db';
import type { PermissionCache } from '@sprout/core/permissions/cache';
import { scopeWhere } from '@sprout/core/permissions/sql';

import { mayWrite, parseDocName } from '@sprout/contracts';
/**
 * What a connection may do: edit, only read (its updates are dropped), only read but keep what
 * it sends for its user (`late`: an editor of a record under review — what she types after the
 * submit is kept per user and offered back to her, never part of the document), or nothing
 * (refused).
 */
export type DocAccess = 'write' | 'read' | 'late' | null;

/** The verified user behind a connection (from the access token only). */
export interface CollabUser {
  tenantId: string;
  userId: string;
  /** The session (sid) the token belongs to: its revocation closes the connection. */
  sessionId: string;
  claims: AccessClaims;
}

/** Decides a user's access to a document; asked on connect and again whenever permissions or the record change. */
export type AccessResolver = (user: CollabUser, docName: string) => Promise<DocAccess>;

/** The record envelope's scope fields → record_list columns (the API's record routes use the same). */
export const RECORD_SCOPE_COLUMNS = {
  tenantId: 'tenant_id',
  id: 'id',
  createUser: 'author_id',
  deptId: 'dept_id',
  classId: 'class_id',
} as const;

interface AccessRow {
  status: string;
  author_id: string;
  co_author_ids: string[] | null;
  class_id: string | null;
  can_read: boolean;
  can_update: boolean;
}

/**
 * The default resolver for record documents (`week:<id>`, and a co-edited family's
 * `class_summary:<id>`…: the kind is the CASL subject and `record_list.kind`), the same
 * decision as the record routes make for the same user and row:
 * - the row in `record_list` (the token's tenant; not deleted) must be in the user's `read`
 *   data scope (the CASL ability as SQL, `scopeWhere`) — else refused (no row and no right
 *   look the same, as a 404 does over HTTP);
 * - `write` when the record is a draft or returned, the row is also in the `update` scope,
 *   the user is an author, a co-author or teaches the record's class (its team), and holds
 *   the `<kind>_edit` button (the edit rule, `mayWrite`: the week details' `can.edit` is the
 *   same); otherwise `read` (a week in trial is read-only for everyone).
 */
export function recordAccess(deps: { database: Database; permissions: PermissionCache }): AccessResolver {
  return async (user, docName): Promise<DocAccess> => {
    const parsed = parseDocName(docName);
    if (!parsed) return null;
    const perms = await deps.permissions.get(user.tenantId, user.userId);
    if (!perms.grants.active) return null;
    const ability = perms.ability;
    const rows = await readInTenant<AccessRow>(
      deps.database,
      { tenantId: user.tenantId, userId: user.userId },
      sql<AccessRow>`
        select status, author_id::text as author_id, co_author_ids::text[] as co_author_ids, class_id::text as class_id,
          coalesce(${scopeWhere(ability, 'read', parsed.kind, RECORD_SCOPE_COLUMNS)}, false) as can_read,
          coalesce(${scopeWhere(ability, 'update', parsed.kind, RECORD_SCOPE_COLUMNS)}, false) as can_update
        from record_list
        where tenant_id = ${user.tenantId} and id = ${parsed.id} and kind = ${parsed.kind} and status <> 'deleted'`.compile(
        deps.database.db,
      ),
    );
    const row = rows[0];
    if (!row?.can_read) return null;
    const author = row.author_id === user.userId || (row.co_author_ids ?? []).includes(user.userId);
    const team = row.class_id !== null && perms.grants.classIds.includes(row.class_id);
    const standing = { update: row.can_update, author, team };
    const button = ability.can(`${parsed.kind}_edit`, 'Button');
    if (mayWrite(row.status, standing, button)) return 'write';
    // Submitted under her hands: an editor's late typing is kept for her (issue 23; the week offers it back).
    return parsed.kind === 'week' && row.status === 'trial' && mayWrite('draft', standing, button) ? 'late' : 'read';
  };
}
