/**
 * The standard menu catalogue: every screen of the product (spec §2, §7) as menus
 * (category 1) with their buttons (category 2), the API paths each grants, and the data
 * scope resource it governs. The seed writes it for the platform; roles are granted from it.
 *
 * Codes are stable identifiers: buttons are `<resource>_<action>` (e.g. `week_add`), and
 * the web app translates `menu.<code>` for labels. `api` lists `METHOD path` patterns
 * (`*` matches one segment, `**` the rest) that the menu's holder may call.
 */
export interface ButtonDef {
  code: string;
  name: string;
  nameEn: string;
  /** Extra API patterns this button grants (beyond its menu's). */
  api?: string[];
}

export interface MenuDef {
  code: string;
  name: string;
  nameEn: string;
  /** Route path; leaves get `/index` appended by the web app. */
  path: string;
  /** Icon (`source`): BladeX's iconfont class for its standard screens (`iconfont iconicon_principal`), else a Tabler icon name without the `Icon` prefix. */
  icon: string;
  sort: number;
  /** Only the platform tenant (000000) sees it. */
  platformOnly?: boolean;
  /** Kept out of the sidebar (reachable by route). */
  hidden?: boolean;
  /** Data-scope resource this screen lists (rows filtered by the role's data scope). */
  resource?: string;
  api?: string[];
  buttons?: ButtonDef[];
  children?: MenuDef[];
}

export interface TopMenuDef {
  code: string;
  name: string;
  nameEn: string;
  icon: string;
  sort: number;
  /** Menu codes (roots) shown under this top menu. */
  menus: string[];
}

/** API patterns of the standard buttons, for screens whose menu grants reads only. */
interface CrudApi {
  add?: string[];
  edit?: string[];
  delete?: string[];
}

/** Standard CRUD buttons for a resource. */
export function crud(
  resource: string,
  zh: string,
  en: string,
  extra: ButtonDef[] = [],
  api: CrudApi = {},
): ButtonDef[] {
  const withApi = (b: ButtonDef, patterns?: string[]) => (patterns ? { ...b, api: patterns } : b);
  return [
    withApi({ code: `${resource}_add`, name: `新增${zh}`, nameEn: `Add ${en}` }, api.add),
    withApi({ code: `${resource}_edit`, name: `修改${zh}`, nameEn: `Edit ${en}` }, api.edit),
    withApi({ code: `${resource}_delete`, name: `删除${zh}`, nameEn: `Delete ${en}` }, api.delete),
    { code: `${resource}_view`, name: `查看${zh}`, nameEn: `View ${en}` },
    ...extra,
  ];
}

/** Lifecycle buttons shared by every reviewed record family. */
export function reviewed(resource: string, zh: string, en: string): ButtonDef[] {
  return [
    ...crud(resource, zh, en),
    { code: `${resource}_submit`, name: `提交${zh}`, nameEn: `Submit ${en}` },
    { code: `${resource}_review`, name: `审核${zh}`, nameEn: `Review ${en}` },
    { code: `${resource}_export`, name: `导出${zh}`, nameEn: `Export ${en}` },
  ];
}

/** A context's screens under one section of the catalogue (a root menu of the frame). */
export interface SectionMenus {
  section: string;
  menus: MenuDef[];
}
