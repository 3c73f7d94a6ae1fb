import { choices, defineCrud } from '../../../kit/crud';
import { bladexIconChoices, menuIcon } from '../../layout';

/** The icons a menu may show: BladeX's names (`iconfont <class>`), as the web maps them; searched by either name. */
const MENU_ICONS = bladexIconChoices().map((c) => ({
  value: c.value,
  name: c.name,
  keywords: c.tabler,
  icon: c.icon,
}));

/**
 * Menus (menu `menu`, `/system/menu`; platform only, docs/API.md "Menus"): the catalogue's
 * menus and their buttons (category 2, a badge of their own) as a tree read one level at a
 * time (`lazy-list?parentId=`); a search shows the whole filtered tree (`list`). A row adds a
 * menu or button under it; the icon (`source`) is picked from a grid and stored as BladeX names it.
 */
export const menus = defineCrud({
  code: 'menu',
  texts: 'system.menu',
  tree: { path: 'lazy-list', param: 'parentId', prefill: { parentId: 'id' }, search: 'list' },
  columns: [
    {
      prop: 'name',
      label: 'system.menu.menuName',
      search: true,
      localized: { en: 'nameEn' },
      rules: { required: true, max: 100 },
    },
    { prop: 'nameEn', hide: true, rules: { max: 100 } },
    {
      prop: 'code',
      search: true,
      width: 150,
      rules: { required: true, max: 64, pattern: [/^[A-Za-z][A-Za-z0-9_]*$/, 'system.menu.rules.codeFormat'] },
    },
    { prop: 'alias', search: true, width: 110, rules: { max: 64 } },
    { prop: 'path', width: 180, rules: { max: 255 } },
    // Sources outside BladeX's names (Tabler names) show as the menu shows them.
    { prop: 'source', type: 'icon', icons: MENU_ICONS, iconFor: (v) => menuIcon(v), width: 84 },
    {
      prop: 'category',
      type: 'select',
      search: true,
      width: 96,
      initial: 1,
      options: choices('system.menu.categories', ['menu', 'button']),
      badges: { 1: 'blue', 2: 'orange' },
      rules: { required: true },
    },
    {
      prop: 'action',
      type: 'select',
      hide: true,
      initial: 0,
      options: choices('system.menu.actions', ['toolbar', 'row', 'both'], 0),
    },
    { prop: 'sort', type: 'number', width: 90, initial: 0, rules: { required: true } },
    {
      prop: 'isOpen',
      type: 'select',
      hide: true,
      initial: 1,
      options: choices('system.menu.isOpens', ['no', 'yes']),
    },
    // Empty: a top menu (the server reads it as `0`).
    {
      prop: 'parentId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/menu/tree', value: 'id', label: 'title' },
    },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
  ],
});
