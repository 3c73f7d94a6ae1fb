/** A menu as `GET /blade-system/menu/routes` returns it (spec §2 dynamic routes). */
export interface MenuNode {
  id: string;
  parentId?: string;
  code: string;
  /** Already in the caller's language. */
  name: string;
  label?: string;
  alias?: string;
  path: string;
  /** A Tabler icon name without the `Icon` prefix (`Notebook`) or a BladeX `iconfont <class>` (menuIcon). */
  source?: string;
  sort?: number;
  category?: number;
  /** 2: an http(s) path opens in a new window; otherwise in the iframe route. */
  isOpen?: number;
  query?: Record<string, string> | string;
  group?: string[];
  children?: MenuNode[];
  meta?: { i18n?: string; roles?: string[] };
}

/** A top menu (`GET /blade-system/menu/top-menu`). */
export interface TopMenu {
  id: string;
  code: string;
  name: string;
  source?: string;
  sort?: number;
}

/** A menu ready for the sidebar and the route table. */
export interface MenuEntry {
  id: string;
  code: string;
  /** The server's name (caller's language at load time). */
  name: string;
  /** `menu.<code>`: translated on the client so a language switch is instant. */
  i18nKey: string;
  /** Where choosing it goes: the route path (leaf → `/index` appended), or `/myiframe/<code>` for an external page. */
  path: string;
  icon: string;
  /** The http(s) address of an external page. */
  url: string | null;
  /** An external page opened in a new window (isOpen 2). */
  newWindow: boolean;
  children: MenuEntry[];
  /** Path of its ancestors' entries, root first (for the sidebar's open groups). */
  parents: string[];
}
