import { defineCrud } from '../../../kit/crud';

/**
 * Regions (`/base/region`, docs/API.md "Regions"): China's divisions as a tree read one level at
 * a time (`lazy-tree?parentCode=`); a row adds a region under it, edits or deletes it.
 */
export const regions = defineCrud({
  code: 'region',
  texts: 'system.region',
  tree: { path: 'lazy-tree', param: 'parentCode', prefill: { parentCode: 'id' } },
  columns: [
    // What the lazy tree answers: its title and its code.
    { prop: 'title', form: false },
    { prop: 'id', form: false, width: 200 },
    // The form (the region's detail).
    {
      prop: 'code',
      hide: true,
      editable: false,
      rules: { required: 'system.region.rules.code', pattern: [/^\d{2,12}$/, 'system.region.rules.codeFormat'] },
    },
    { prop: 'name', label: 'system.region.regionName', hide: true, rules: { required: true, max: 64 } },
    {
      prop: 'parentCode',
      hide: true,
      initial: '00',
      rules: { pattern: [/^\d{2,12}$/, 'system.region.rules.codeFormat'] },
    },
    { prop: 'sort', type: 'number', hide: true, initial: 0 },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
  ],
});
