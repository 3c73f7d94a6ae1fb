import { registerMessages } from '@sprout/core/i18n';

registerMessages({
  zh: {
    'guide.studentId': '请选择幼儿',
    'guide.semester': '学期格式应为“2026-2027-1”（学年-学期，1 为上学期，2 为下学期）',
    'guide.childNotFound': '幼儿不存在或已删除',
    'guide.childOutOfScope': '您的数据权限不包含该幼儿所在的班级，不能查看其成长观察',
  },
  en: {
    'guide.studentId': 'Please choose a child',
    'guide.semester': 'The semester must look like “2026-2027-1” (school year, then 1 for autumn or 2 for spring)',
    'guide.childNotFound': 'This child does not exist or was removed',
    'guide.childOutOfScope':
      'Your data scope does not include this child’s class, so you cannot see the child’s observations',
  },
});
