import { type Kysely, sql } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';

/** A province's parent: the root of the region tree (BladeX's `00`). */
export const ROOT = '00';

/** A region as the calls read it, with its parent's name. */
export interface RegionRow {
  code: string;
  parent_code: string;
  name: string;
  region_level: number;
  sort: number;
  remark: string | null;
  create_time: Date;
  parent_name: string | null;
}

/** Regions with their parent's name, filtered as the list searches (code and name contain, parentCode equals). */
export function regionRows(db: Kysely<DB>, f: { code?: string; name?: string; parentCode?: string } = {}) {
  let qb = db
    .selectFrom('region')
    .leftJoin('region as p', 'p.code', 'region.parent_code')
    .select([
      'region.code',
      'region.parent_code',
      'region.name',
      'region.region_level',
      'region.sort',
      'region.remark',
      'region.create_time',
      'p.name as parent_name',
    ]);
  if (f.code) qb = qb.where('region.code', 'like', containsPattern(f.code));
  if (f.name) qb = qb.where('region.name', 'like', containsPattern(f.name));
  if (f.parentCode) qb = qb.where('region.parent_code', '=', f.parentCode);
  return qb.orderBy('region.parent_code').orderBy('region.sort').orderBy('region.code');
}

/** One level of the tree: the children of `parentCode`, each saying whether it has children. */
export function childrenOf(db: Kysely<DB>, parentCode: string) {
  return db
    .selectFrom('region as r')
    .select(['r.code', 'r.parent_code', 'r.name'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('region as c').select('c.code').whereRef('c.parent_code', '=', 'r.code'))
        .as('has_children'),
    )
    .where('r.parent_code', '=', parentCode)
    .orderBy('r.sort')
    .orderBy('r.code');
}

/** The regions of `codes` that exist, locked for a change in code order, by code. */
export async function lockRegions(trx: Kysely<DB>, codes: string[]) {
  const rows = await trx
    .selectFrom('region')
    .select(['code', 'parent_code', 'region_level'])
    .where('code', 'in', [...new Set(codes)])
    .orderBy('code')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.code, r]));
}

/** The codes from `code` up to the root (`code` first): a new parent among them would make a cycle. */
export async function ancestorsOf(trx: Kysely<DB>, code: string): Promise<string[]> {
  const { rows } = await sql<{ code: string }>`
    with recursive up (code, parent_code, depth) as (
      select code, parent_code, 0 from region where code = ${code}
      union all
      select r.code, r.parent_code, up.depth + 1 from region r join up on r.code = up.parent_code where up.depth < 64
    )
    select code from up order by depth`.execute(trx);
  return rows.map((r) => r.code);
}

/** Moves the levels of `code`'s descendants by `delta` (after `code` moved to another parent). */
export async function shiftSubtree(trx: Kysely<DB>, code: string, delta: number) {
  if (!delta) return;
  await sql`
    with recursive down (code, depth) as (
      select code, 0 from region where parent_code = ${code}
      union all
      select r.code, down.depth + 1 from region r join down on r.parent_code = down.code where down.depth < 64
    )
    update region set region_level = region_level + ${delta} where code in (select code from down)`.execute(trx);
}
