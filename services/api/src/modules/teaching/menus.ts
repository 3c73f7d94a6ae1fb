import { crud, reviewed, type SectionMenus } from '@sprout/core/permissions/catalog';

/** The screens this context serves in the catalogue (taken over from planned.ts): menus, buttons, API scopes. */
export const TEACHING_MENUS: SectionMenus[] = [
  {
    section: 'growth_center',
    menus: [
      {
        code: 'teacher_plan',
        name: '教师计划',
        nameEn: 'Teacher plans',
        path: '/teacher_plan/list',
        icon: 'Target',
        sort: 1,
        resource: 'teacher_plan',
        api: ['* /api/teacher_plan/plan/**'],
        buttons: reviewed('teacher_plan', '教师计划', 'teacher plan'),
      },
      {
        code: 'research',
        name: '教研活动',
        nameEn: 'Research activities',
        path: '/teacher_research/listResearch',
        icon: 'Flask',
        sort: 2,
        resource: 'research',
        api: ['* /api/teacher_research/listResearch/**', 'GET /api/teacher_project/project/projectList'],
        buttons: reviewed('research', '教研活动', 'research activity'),
      },
      {
        code: 'project',
        name: '课题管理',
        nameEn: 'Projects',
        path: '/teacher_project/list',
        icon: 'Bulb',
        sort: 3,
        resource: 'project',
        api: ['* /api/teacher_project/project/**', 'GET /api/teacher_research/listResearch/listForProjectId'],
        buttons: reviewed('project', '课题', 'project'),
      },
    ],
  },
  {
    section: 'class_center',
    menus: [
      {
        code: 'class_work',
        name: '班级工作计划',
        nameEn: 'Class work plans',
        path: '/classWork/list',
        icon: 'ListCheck',
        sort: 3,
        resource: 'class_work',
        api: ['* /api/t_class_work/classwork/**'],
        buttons: reviewed('class_work', '班级工作计划', 'class work plan'),
      },
      {
        code: 'class_summary',
        name: '班级总结',
        nameEn: 'Class summaries',
        path: '/classSummary/list',
        icon: 'FileText',
        sort: 4,
        resource: 'class_summary',
        api: ['* /api/t_class_summary/classsummary/**'],
        buttons: reviewed('class_summary', '班级总结', 'class summary'),
      },
      {
        code: 'half_follow',
        name: '半日跟进',
        nameEn: 'Half-day visits',
        path: '/halfFollow/list',
        icon: 'Walk',
        sort: 5,
        resource: 'half_follow',
        api: ['* /api/t_half_flow/halfflow/**', '* /api/t_half_flow_list/halfflowlist/**'],
        buttons: crud('half_follow', '半日跟进', 'half-day visit', [
          { code: 'half_follow_submit', name: '提交半日跟进', nameEn: 'Submit half-day visit' },
          { code: 'half_follow_reply', name: '回复半日跟进', nameEn: 'Reply to half-day visit' },
        ]),
      },
    ],
  },
];
