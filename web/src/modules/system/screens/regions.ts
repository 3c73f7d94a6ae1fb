import { defineCrud } from '../../../kit/crud';

/**
 * Regions (`/base/region`, docs/API.md "Regions"): China's divisions as a tree read one level at
 * a time (`lazy-tree?parentCode=`); a row adds a region under it, edits or deletes it.
 */
export const regions = defineCrud({
  resource: '/blade-system/region',
  name: 'system.region.name',
  testId: 'region-page',
  buttons: { add: 'region_add', edit: 'region_edit', delete: 'region_delete', view: 'region_view' },
  tree: { path: 'lazy-tree', param: 'parentCode', prefill: { parentCode: 'id' } },
  columns: [
    // What the lazy tree answers: its title and its code.
    { prop: 'title', label: 'system.region.title', form: false },
    { prop: 'id', label: 'system.region.id', form: false, width: 200 },
    // The form (the region's detail).
    {
      prop: 'code',
      label: 'system.region.code',
      hide: true,
      editable: false,
      rules: { required: 'system.region.rules.code', pattern: [/^\d{2,12}$/, 'system.region.rules.codeFormat'] },
    },
    {
      prop: 'name',
      label: 'system.region.regionName',
      hide: true,
      rules: { required: 'system.region.rules.name', max: 64 },
    },
    {
      prop: 'parentCode',
      label: 'system.region.parentCode',
      hide: true,
      initial: '00',
      rules: { pattern: [/^\d{2,12}$/, 'system.region.rules.codeFormat'] },
    },
    { prop: 'sort', label: 'system.region.sort', type: 'number', hide: true, initial: 0 },
    { prop: 'remark', label: 'system.region.remark', type: 'textarea', hide: true, rules: { max: 255 } },
  ],
});
