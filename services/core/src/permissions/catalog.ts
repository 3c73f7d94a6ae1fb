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
  /** Icon name (Tabler icons, without the `Icon` prefix). */
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
function crud(resource: string, zh: string, en: string, extra: ButtonDef[] = [], api: CrudApi = {}): ButtonDef[] {
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
function reviewed(resource: string, zh: string, en: string): ButtonDef[] {
  return [
    ...crud(resource, zh, en),
    { code: `${resource}_submit`, name: `提交${zh}`, nameEn: `Submit ${en}` },
    { code: `${resource}_review`, name: `审核${zh}`, nameEn: `Review ${en}` },
    { code: `${resource}_export`, name: `导出${zh}`, nameEn: `Export ${en}` },
  ];
}

export const MENUS: MenuDef[] = [
  {
    code: 'desk',
    name: '工作台',
    nameEn: 'Workbench',
    path: '/wel',
    icon: 'LayoutDashboard',
    sort: 1,
    children: [
      {
        code: 'desk_home',
        name: '首页',
        nameEn: 'Home',
        path: '/wel/index',
        icon: 'Home',
        sort: 1,
        api: ['GET /api/week/week/home'],
      },
      {
        code: 'desk_notice',
        name: '通知公告',
        nameEn: 'Notices',
        path: '/desk/notice',
        icon: 'Speakerphone',
        sort: 2,
        resource: 'notice',
        api: ['GET /api/blade-desk/notice/**'],
        buttons: crud('notice', '公告', 'notice'),
      },
    ],
  },
  {
    code: 'lesson',
    name: '备课管理',
    nameEn: 'Lesson planning',
    path: '/week',
    icon: 'Notebook',
    sort: 10,
    children: [
      {
        code: 'week_mine',
        name: '我的备课',
        nameEn: 'My lesson plans',
        path: '/week/mine',
        icon: 'CalendarWeek',
        sort: 1,
        resource: 'week',
        api: [
          '* /api/week/week/**',
          '* /api/week_plan/weekplan/**',
          '* /api/half_plan/**',
          // Picking and saving one's own templates belongs to writing plans.
          'GET /api/t_week_template/template/listTemplate',
          'POST /api/t_week_template/template/addTemplate',
          'GET /api/t_week_template/template/deletedById',
        ],
        buttons: [
          ...crud('week', '备课', 'lesson plan'),
          { code: 'week_submit', name: '提交审核', nameEn: 'Submit for review' },
          { code: 'week_copy', name: '复制到下周', nameEn: 'Copy to next week' },
        ],
      },
      {
        code: 'week_trial',
        name: '待审核备课',
        nameEn: 'Plans to review',
        path: '/week/trial',
        icon: 'ClipboardCheck',
        sort: 2,
        resource: 'week',
        api: ['* /api/week/week/**', '* /api/week_plan/weekplan/**'],
        buttons: [
          { code: 'week_review', name: '审核备课', nameEn: 'Review lesson plan' },
          { code: 'week_boss_edit', name: '审核时修改', nameEn: 'Edit during review' },
        ],
      },
      {
        code: 'week_success',
        name: '已通过备课',
        nameEn: 'Approved plans',
        path: '/week/success',
        icon: 'CircleCheck',
        sort: 3,
        resource: 'week',
        api: [
          'GET /api/week/week/**',
          'POST /api/week/week/alllistForTrial2Success',
          'POST /api/week/week/alllistForTrialSuccess',
        ],
        buttons: [{ code: 'week_export', name: '导出备课', nameEn: 'Export lesson plan' }],
      },
      {
        code: 'week_excellent_list',
        name: '优秀教案',
        nameEn: 'Excellent plans',
        path: '/week/excellent',
        icon: 'Award',
        sort: 4,
        resource: 'week',
        api: ['POST /api/week_plan/weekplan/**'],
        buttons: [
          { code: 'week_excellent', name: '评为优秀', nameEn: 'Mark excellent' },
          { code: 'week_collect', name: '收藏', nameEn: 'Add to favourites' },
        ],
      },
      {
        code: 'week_favorite',
        name: '我的收藏',
        nameEn: 'My favourites',
        path: '/week/favorite',
        icon: 'Star',
        sort: 5,
        api: ['POST /api/week_plan/weekplan/collectionByUserId', 'POST /api/week_plan/weekplan/cancelCollection'],
      },
      {
        code: 'week_half',
        name: '半日活动',
        nameEn: 'Half-day plans',
        path: '/week/halfPlanList',
        icon: 'Clock',
        sort: 6,
        resource: 'week',
        api: ['* /api/half_plan/**'],
      },
      {
        code: 'week_full',
        name: '一日活动',
        nameEn: 'Full-day plans',
        path: '/week/halfPlanListTX',
        icon: 'Sun',
        sort: 7,
        resource: 'week',
        api: ['* /api/half_plan/**'],
      },
      {
        code: 'week_template',
        name: '备课模板',
        nameEn: 'Plan templates',
        path: '/week/template',
        icon: 'Template',
        sort: 8,
        api: ['* /api/t_week_template/template/**'],
        buttons: crud('template', '模板', 'template'),
      },
    ],
  },
  {
    code: 'observe',
    name: '观察记录',
    nameEn: 'Observations',
    path: '/observation',
    icon: 'Eye',
    sort: 20,
    children: [
      {
        code: 'observation_list',
        name: '观察记录',
        nameEn: 'Observation records',
        path: '/observation/list',
        icon: 'Notes',
        sort: 1,
        resource: 'observation',
        api: ['* /api/t_observation/observation/**', 'GET /api/observation/type/getList'],
        buttons: [
          ...crud('observation', '观察记录', 'observation'),
          { code: 'observation_submit', name: '提交审核', nameEn: 'Submit for review' },
          { code: 'observation_export', name: '导出观察记录', nameEn: 'Export observation' },
          { code: 'observation_excellent', name: '评为优秀', nameEn: 'Mark excellent' },
          { code: 'observation_collect', name: '收藏', nameEn: 'Add to favourites' },
        ],
      },
      {
        code: 'observation_trial',
        name: '待审核观察',
        nameEn: 'Observations to review',
        path: '/observation/trial',
        icon: 'ClipboardCheck',
        sort: 2,
        resource: 'observation',
        api: ['* /api/t_observation/observation/**'],
        buttons: [{ code: 'observation_review', name: '审核观察记录', nameEn: 'Review observation' }],
      },
      {
        code: 'observation_regional',
        name: '区域观察',
        nameEn: 'Area observations',
        path: '/observation_regional/list',
        icon: 'LayoutGrid',
        sort: 3,
        resource: 'observation_regional',
        api: ['* /api/observation_regional/observationregional/**'],
        buttons: reviewed('observation_regional', '区域观察', 'area observation'),
      },
      {
        code: 'hearken',
        name: '倾听记录',
        nameEn: 'Listening records',
        path: '/hearken/list',
        icon: 'Ear',
        sort: 4,
        resource: 'hearken',
        api: ['* /api/t_hearken/hearken/**', 'GET /api/hearken/type/getList'],
        buttons: reviewed('hearken', '倾听记录', 'listening record'),
      },
      {
        code: 'creview',
        name: '主题审议',
        nameEn: 'Theme reviews',
        path: '/creview/list',
        icon: 'Messages',
        sort: 5,
        resource: 'creview',
        api: ['* /api/t_observation_creview/creview/**'],
        buttons: reviewed('creview', '主题审议', 'theme review'),
      },
    ],
  },
  {
    code: 'growth_center',
    name: '教师发展',
    nameEn: 'Teacher development',
    path: '/teacher',
    icon: 'School',
    sort: 30,
    children: [
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
        api: ['* /api/teacher_research/listResearch/**'],
        buttons: crud('research', '教研活动', 'research activity'),
      },
      {
        code: 'project',
        name: '课题管理',
        nameEn: 'Projects',
        path: '/teacher_project/list',
        icon: 'Bulb',
        sort: 3,
        resource: 'project',
        api: ['* /api/teacher_project/project/**'],
        buttons: crud('project', '课题', 'project'),
      },
      {
        code: 'growth',
        name: '成长档案',
        nameEn: 'Growth archive',
        path: '/growth/teacher',
        icon: 'Plant2',
        sort: 4,
        resource: 'growth',
        api: ['* /api/growth/growth/**'],
        buttons: crud('growth', '成长记录', 'growth entry'),
      },
    ],
  },
  {
    code: 'class_center',
    name: '班级管理',
    nameEn: 'Classes',
    path: '/class',
    icon: 'UsersGroup',
    sort: 40,
    children: [
      {
        code: 'clazz',
        name: '班级信息',
        nameEn: 'Class information',
        path: '/clazz/classinfo',
        icon: 'Building',
        sort: 1,
        resource: 'clazz',
        api: ['GET /api/clazz/classinfo/**', 'POST /api/clazz/classinfo/getClassList'],
        buttons: crud('clazz', '班级', 'class', [], {
          add: ['POST /api/clazz/classinfo/submit'],
          edit: ['POST /api/clazz/classinfo/submit', 'POST /api/clazz/classinfo/update'],
          delete: ['* /api/clazz/classinfo/remove'],
        }),
      },
      {
        code: 'student',
        name: '幼儿信息',
        nameEn: 'Children',
        path: '/student/student',
        icon: 'MoodKid',
        sort: 2,
        resource: 'student',
        api: ['GET /api/student/student/**'],
        buttons: crud('student', '幼儿', 'child', [], {
          add: ['POST /api/student/student/saveStudent'],
          edit: ['POST /api/student/student/updateStudent'],
          delete: ['* /api/student/student/removeStudent'],
        }),
      },
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
        buttons: crud('half_follow', '半日跟进', 'half-day visit'),
      },
      {
        code: 'teacher_master',
        name: '教师档案',
        nameEn: 'Teacher records',
        path: '/teacher/master',
        icon: 'IdBadge2',
        sort: 6,
        resource: 'teacher_master',
        api: ['* /api/teacher/master/**'],
        buttons: crud('teacher_master', '教师档案', 'teacher record'),
      },
    ],
  },
  {
    code: 'library',
    name: '资源库',
    nameEn: 'File library',
    path: '/file',
    icon: 'Folders',
    sort: 50,
    children: [
      {
        code: 'file',
        name: '资源文件',
        nameEn: 'Files',
        path: '/file/file',
        icon: 'File',
        sort: 1,
        resource: 'file',
        api: [
          '* /api/file/file/**',
          'GET /api/file/fileKind/kindTree',
          '* /api/blade-resource/oss/endpoint/put-file',
          '* /api/upload/**',
        ],
        buttons: crud('file', '文件', 'file'),
      },
      {
        code: 'file_kind',
        name: '资源分类',
        nameEn: 'Categories',
        path: '/file/fileKind',
        icon: 'Category',
        sort: 2,
        api: ['* /api/file/fileKind/**'],
        buttons: crud('file_kind', '分类', 'category'),
      },
      {
        code: 'file_type',
        name: '文件类型',
        nameEn: 'File types',
        path: '/file/filetype',
        icon: 'FileDescription',
        sort: 3,
        api: ['* /api/file/filetype/**'],
        buttons: crud('file_type', '文件类型', 'file type'),
      },
      {
        code: 'file_identify',
        name: '文件识别',
        nameEn: 'Text recognition',
        path: '/file/fileidentify',
        icon: 'ScanEye',
        sort: 4,
        api: ['* /api/t_file_identify/fileidentify/**'],
        buttons: crud('file_identify', '识别记录', 'recognition'),
      },
    ],
  },
  {
    code: 'system',
    name: '系统管理',
    nameEn: 'System',
    path: '/system',
    icon: 'Settings',
    sort: 90,
    children: [
      {
        code: 'user',
        name: '用户管理',
        nameEn: 'Users',
        path: '/system/user',
        icon: 'User',
        sort: 1,
        resource: 'user',
        api: [
          'GET /api/blade-user/page',
          'GET /api/blade-user/detail',
          'GET /api/blade-user/infoByPhone',
          'GET /api/blade-user/platform-detail',
          'GET /api/blade-system/dept/**',
          'GET /api/blade-system/post/**',
          'GET /api/blade-system/role/tree',
        ],
        buttons: crud(
          'user',
          '用户',
          'user',
          [
            { code: 'user_role', name: '角色配置', nameEn: 'Assign roles', api: ['POST /api/blade-user/grant'] },
            {
              code: 'user_reset',
              name: '密码重置',
              nameEn: 'Reset password',
              api: ['POST /api/blade-user/reset-password'],
            },
            {
              code: 'user_approve',
              name: '注册审批',
              nameEn: 'Approve registrations',
              api: [
                'GET /api/blade-user/audit-list',
                'POST /api/blade-user/audit-pass',
                'POST /api/blade-user/audit-refuse',
              ],
            },
          ],
          {
            add: ['POST /api/blade-user/submit'],
            edit: [
              'POST /api/blade-user/submit',
              'POST /api/blade-user/update',
              'POST /api/blade-user/update-platform',
            ],
            delete: ['POST /api/blade-user/remove'],
          },
        ),
      },
      {
        code: 'dept',
        name: '机构管理',
        nameEn: 'Departments',
        path: '/system/dept',
        icon: 'Sitemap',
        sort: 2,
        resource: 'dept',
        api: ['GET /api/blade-system/dept/**'],
        buttons: crud('dept', '机构', 'department', [], {
          add: ['POST /api/blade-system/dept/submit'],
          edit: ['POST /api/blade-system/dept/submit'],
          delete: ['POST /api/blade-system/dept/remove'],
        }),
      },
      {
        code: 'post',
        name: '岗位管理',
        nameEn: 'Posts',
        path: '/system/post',
        icon: 'Briefcase',
        sort: 3,
        api: ['GET /api/blade-system/post/**'],
        buttons: crud('post', '岗位', 'post', [], {
          add: ['POST /api/blade-system/post/submit'],
          edit: ['POST /api/blade-system/post/submit'],
          delete: ['POST /api/blade-system/post/remove'],
        }),
      },
      {
        code: 'role',
        name: '角色管理',
        nameEn: 'Roles',
        path: '/system/role',
        icon: 'UserShield',
        sort: 4,
        api: [
          'GET /api/blade-system/role/**',
          'GET /api/blade-system/menu/grant-tree',
          'GET /api/blade-system/menu/role-tree-keys',
          'GET /api/blade-system/menu/grant-top-tree',
          'GET /api/blade-system/menu/top-tree-keys',
        ],
        buttons: crud(
          'role',
          '角色',
          'role',
          [
            {
              code: 'role_grant',
              name: '权限设置',
              nameEn: 'Grant permissions',
              api: ['POST /api/blade-system/role/grant'],
            },
          ],
          {
            add: ['POST /api/blade-system/role/submit'],
            edit: ['POST /api/blade-system/role/submit'],
            delete: ['POST /api/blade-system/role/remove'],
          },
        ),
      },
      {
        code: 'menu',
        name: '菜单管理',
        nameEn: 'Menus',
        path: '/system/menu',
        icon: 'Menu2',
        sort: 5,
        platformOnly: true,
        api: ['* /api/blade-system/menu/**'],
        buttons: crud('menu', '菜单', 'menu'),
      },
      {
        code: 'topmenu',
        name: '顶部菜单',
        nameEn: 'Top menus',
        path: '/system/topmenu',
        icon: 'LayoutNavbar',
        sort: 6,
        platformOnly: true,
        api: [
          '* /api/blade-system/topmenu/**',
          'GET /api/blade-system/menu/grant-top-tree',
          'GET /api/blade-system/menu/top-tree-keys',
        ],
        buttons: crud('topmenu', '顶部菜单', 'top menu', [
          { code: 'topmenu_grant', name: '菜单配置', nameEn: 'Assign menus' },
        ]),
      },
      {
        code: 'dict',
        name: '系统字典',
        nameEn: 'System dictionary',
        path: '/system/dict',
        icon: 'Book',
        sort: 7,
        platformOnly: true,
        api: ['* /api/blade-system/dict/**'],
        buttons: crud('dict', '字典', 'dictionary entry'),
      },
      {
        code: 'dict_biz',
        name: '业务字典',
        nameEn: 'Business dictionary',
        path: '/system/dictbiz',
        icon: 'Book2',
        sort: 8,
        api: ['* /api/blade-system/dict-biz/**'],
        buttons: crud('dict_biz', '业务字典', 'dictionary entry'),
      },
      {
        code: 'param',
        name: '参数管理',
        nameEn: 'Parameters',
        path: '/system/param',
        icon: 'Adjustments',
        sort: 9,
        api: ['* /api/blade-system/param/**'],
        buttons: crud('param', '参数', 'parameter'),
      },
      {
        code: 'tenant',
        name: '租户管理',
        nameEn: 'Tenants',
        path: '/system/tenant',
        icon: 'BuildingCommunity',
        sort: 10,
        platformOnly: true,
        api: ['* /api/blade-system/tenant/**', 'GET /api/blade-develop/datasource/**'],
        buttons: crud('tenant', '租户', 'tenant', [
          { code: 'tenant_setting', name: '授权配置', nameEn: 'Licence settings' },
          { code: 'tenant_datasource', name: '数据源配置', nameEn: 'Data source' },
        ]),
      },
      {
        code: 'client',
        name: '应用管理',
        nameEn: 'Clients',
        path: '/system/client',
        icon: 'Apps',
        sort: 11,
        platformOnly: true,
        api: ['* /api/blade-system/client/**'],
        buttons: crud('client', '应用', 'client'),
      },
      {
        code: 'data_scope',
        name: '数据权限',
        nameEn: 'Data scopes',
        path: '/authority/datascope',
        icon: 'Database',
        sort: 12,
        platformOnly: true,
        api: ['* /api/blade-system/data-scope/**', 'GET /api/blade-system/menu/**'],
        buttons: crud('data_scope', '数据权限', 'data scope'),
      },
      {
        code: 'api_scope',
        name: '接口权限',
        nameEn: 'API scopes',
        path: '/authority/apiscope',
        icon: 'Api',
        sort: 13,
        platformOnly: true,
        api: ['* /api/blade-system/api-scope/**', 'GET /api/blade-system/menu/**'],
        buttons: crud('api_scope', '接口权限', 'API scope'),
      },
      {
        code: 'region',
        name: '行政区划',
        nameEn: 'Regions',
        path: '/system/region',
        icon: 'Map',
        sort: 14,
        platformOnly: true,
        api: ['* /api/blade-system/region/**'],
        buttons: crud('region', '区划', 'region'),
      },
      {
        code: 'datasource',
        name: '数据源管理',
        nameEn: 'Data sources',
        path: '/tool/datasource',
        icon: 'DatabaseCog',
        sort: 15,
        platformOnly: true,
        api: ['* /api/blade-develop/datasource/**'],
        buttons: crud('datasource', '数据源', 'data source'),
      },
      {
        code: 'code',
        name: '代码生成',
        nameEn: 'Code generator',
        path: '/tool/code',
        icon: 'Code',
        sort: 16,
        platformOnly: true,
        api: ['* /api/blade-develop/code/**'],
        buttons: crud('code', '代码生成', 'generator', [{ code: 'code_gen', name: '生成代码', nameEn: 'Generate' }]),
      },
      {
        code: 'report',
        name: '报表管理',
        nameEn: 'Reports',
        path: '/report/reportlist',
        icon: 'ReportAnalytics',
        sort: 17,
        api: ['* /api/blade-report/report/rest/**'],
        buttons: [{ code: 'report_delete', name: '删除报表', nameEn: 'Delete report' }],
      },
      {
        code: 'audit',
        name: '审计追溯',
        nameEn: 'Audit trail',
        path: '/system/audit',
        icon: 'History',
        sort: 18,
        // Streams are filtered by the holder's `audit` data scope (a record's author, dept, class).
        resource: 'audit',
        api: ['GET /api/audit/**'],
      },
    ],
  },
  {
    code: 'resource',
    name: '资源管理',
    nameEn: 'Resources',
    path: '/resource',
    icon: 'CloudUpload',
    sort: 91,
    children: [
      {
        code: 'oss',
        name: '对象存储',
        nameEn: 'Object storage',
        path: '/resource/oss',
        icon: 'Cloud',
        sort: 1,
        api: ['* /api/blade-resource/oss/**'],
        buttons: crud('oss', '存储配置', 'storage', [{ code: 'oss_enable', name: '启用', nameEn: 'Enable' }]),
      },
      {
        code: 'sms',
        name: '短信配置',
        nameEn: 'SMS',
        path: '/resource/sms',
        icon: 'Message',
        sort: 2,
        api: ['* /api/blade-resource/sms/**'],
        buttons: crud('sms', '短信配置', 'SMS setting', [{ code: 'sms_enable', name: '启用', nameEn: 'Enable' }]),
      },
      {
        code: 'attach',
        name: '附件管理',
        nameEn: 'Attachments',
        path: '/resource/attach',
        icon: 'Paperclip',
        sort: 3,
        api: ['* /api/blade-resource/attach/**'],
        buttons: [
          { code: 'attach_upload', name: '上传', nameEn: 'Upload' },
          { code: 'attach_download', name: '下载', nameEn: 'Download' },
          { code: 'attach_delete', name: '删除', nameEn: 'Delete' },
        ],
      },
    ],
  },
  {
    code: 'flow',
    name: '流程管理',
    nameEn: 'Workflow',
    path: '/flow',
    icon: 'GitBranch',
    sort: 92,
    children: [
      {
        code: 'flow_model',
        name: '模型管理',
        nameEn: 'Models',
        path: '/flow/model',
        icon: 'Schema',
        sort: 1,
        api: ['* /api/blade-flow/model/**'],
        buttons: crud('flow_model', '模型', 'model', [{ code: 'flow_model_deploy', name: '部署', nameEn: 'Deploy' }]),
      },
      {
        code: 'flow_manager',
        name: '流程部署',
        nameEn: 'Deployments',
        path: '/flow/manager',
        icon: 'Rocket',
        sort: 2,
        api: ['* /api/blade-flow/manager/**'],
        buttons: [
          { code: 'flow_manager_state', name: '变更状态', nameEn: 'Change state' },
          { code: 'flow_manager_delete', name: '删除部署', nameEn: 'Delete deployment' },
          { code: 'flow_manager_upload', name: '上传部署', nameEn: 'Upload deployment' },
        ],
      },
      {
        code: 'flow_follow',
        name: '流程跟踪',
        nameEn: 'Process tracking',
        path: '/flow/follow',
        icon: 'Route',
        sort: 3,
        api: ['* /api/blade-flow/follow/**', 'GET /api/blade-flow/process/**'],
        buttons: [{ code: 'flow_follow_delete', name: '删除流程', nameEn: 'Delete process' }],
      },
    ],
  },
  {
    code: 'work',
    name: '我的事务',
    nameEn: 'My tasks',
    path: '/work',
    icon: 'Checklist',
    sort: 93,
    children: [
      {
        code: 'work_start',
        name: '发起事务',
        nameEn: 'Start a request',
        path: '/work/start',
        icon: 'PlayerPlay',
        sort: 1,
        api: ['GET /api/blade-flow/work/start-list', '* /api/blade-desk/process/leave/**'],
        buttons: [{ code: 'work_start_leave', name: '请假申请', nameEn: 'Apply for leave' }],
      },
      {
        code: 'work_claim',
        name: '待签事务',
        nameEn: 'To claim',
        path: '/work/claim',
        icon: 'HandGrab',
        sort: 2,
        api: [
          'GET /api/blade-flow/work/claim-list',
          'POST /api/blade-flow/work/claim-task',
          'GET /api/blade-flow/process/**',
        ],
        buttons: [{ code: 'work_claim_sign', name: '签收', nameEn: 'Claim' }],
      },
      {
        code: 'work_todo',
        name: '待办事务',
        nameEn: 'To do',
        path: '/work/todo',
        icon: 'ListDetails',
        sort: 3,
        api: [
          'GET /api/blade-flow/work/todo-list',
          'POST /api/blade-flow/work/complete-task',
          'GET /api/blade-flow/process/**',
          'GET /api/blade-desk/process/leave/detail',
        ],
        buttons: [{ code: 'work_todo_handle', name: '办理', nameEn: 'Handle' }],
      },
      {
        code: 'work_send',
        name: '已发事务',
        nameEn: 'Sent',
        path: '/work/send',
        icon: 'Send',
        sort: 4,
        api: [
          'GET /api/blade-flow/work/send-list',
          'GET /api/blade-flow/process/**',
          'GET /api/blade-desk/process/leave/detail',
        ],
      },
      {
        code: 'work_done',
        name: '办结事务',
        nameEn: 'Done',
        path: '/work/done',
        icon: 'Archive',
        sort: 5,
        api: [
          'GET /api/blade-flow/work/done-list',
          'GET /api/blade-flow/process/**',
          'GET /api/blade-desk/process/leave/detail',
        ],
      },
    ],
  },
  {
    code: 'log',
    name: '日志管理',
    nameEn: 'Logs',
    path: '/log',
    icon: 'FileAnalytics',
    sort: 94,
    children: [
      {
        code: 'log_usual',
        name: '通用日志',
        nameEn: 'General log',
        path: '/log/usual',
        icon: 'FileInfo',
        sort: 1,
        api: ['GET /api/blade-log/usual/**'],
      },
      {
        code: 'log_api',
        name: '接口日志',
        nameEn: 'API log',
        path: '/log/api',
        icon: 'FileCode',
        sort: 2,
        api: ['GET /api/blade-log/api/**'],
      },
      {
        code: 'log_error',
        name: '错误日志',
        nameEn: 'Error log',
        path: '/log/error',
        icon: 'FileAlert',
        sort: 3,
        api: ['GET /api/blade-log/error/**'],
      },
      {
        code: 'log_security',
        name: '安全日志',
        nameEn: 'Security log',
        path: '/log/security',
        icon: 'ShieldLock',
        sort: 4,
        api: ['GET /api/blade-log/security/**'],
      },
    ],
  },
];

export const TOP_MENUS: TopMenuDef[] = [
  {
    code: 'top_teaching',
    name: '教学',
    nameEn: 'Teaching',
    icon: 'School',
    sort: 1,
    menus: ['desk', 'lesson', 'observe', 'growth_center', 'class_center', 'library'],
  },
  { code: 'top_affairs', name: '事务', nameEn: 'Affairs', icon: 'Checklist', sort: 2, menus: ['desk', 'work', 'flow'] },
  {
    code: 'top_system',
    name: '系统',
    nameEn: 'System',
    icon: 'Settings',
    sort: 3,
    menus: ['system', 'resource', 'log'],
  },
];

/** Every menu and button as a flat list, parents before children. */
export function flattenCatalog(menus: MenuDef[] = MENUS) {
  const out: Array<{ def: MenuDef | ButtonDef; parent?: string; category: 1 | 2; menu: MenuDef }> = [];
  const walk = (m: MenuDef, parent?: string) => {
    out.push({ def: m, parent, category: 1, menu: m });
    for (const b of m.buttons ?? []) out.push({ def: b, parent: m.code, category: 2, menu: m });
    for (const c of m.children ?? []) walk(c, m.code);
  };
  for (const m of menus) walk(m);
  return out;
}
