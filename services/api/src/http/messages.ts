import { registerMessages } from '@sprout/core/i18n';

/** Messages of the shared HTTP helpers every context uses. */
registerMessages({
  zh: {
    'http.added': '新增成功',
    'http.updated': '修改成功',
    'http.removed': '删除成功',
    'http.unknownIds': '以下编号不存在或不在您的数据权限内，未删除任何数据：{ids}',
  },
  en: {
    'http.added': 'Added',
    'http.updated': 'Updated',
    'http.removed': 'Deleted',
    'http.unknownIds': 'No such records, or outside your data scope (nothing was deleted): {ids}',
  },
});
