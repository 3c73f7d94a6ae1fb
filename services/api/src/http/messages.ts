import { registerMessages } from '@sprout/core/i18n';

/** Messages of the shared HTTP helpers every context uses. */
registerMessages({
  zh: {
    'http.unknownIds': '以下编号不存在或不在您的数据权限内，未删除任何数据：{ids}',
  },
  en: {
    'http.unknownIds': 'No such records, or outside your data scope (nothing was deleted): {ids}',
  },
});
