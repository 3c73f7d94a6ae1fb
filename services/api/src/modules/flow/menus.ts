import { crud, type SectionMenus } from '@sprout/core/permissions/catalog';

/**
 * The workflow screens this context serves (issue 20; taken over from planned.ts): the console's
 * models, deployments and follow-up, and everyone's five work lists with the leave request.
 */
export const FLOW_MENUS: SectionMenus[] = [
  {
    section: 'flow',
    menus: [
      {
        code: 'flow_model',
        name: '模型管理',
        nameEn: 'Models',
        path: '/flow/model',
        icon: 'iconfont iconicon_discovery',
        sort: 1,
        api: ['* /api/blade-flow/model/**'],
        buttons: crud('flow_model', '模型', 'model', [{ code: 'flow_model_deploy', name: '部署', nameEn: 'Deploy' }]),
      },
      {
        code: 'flow_manager',
        name: '流程部署',
        nameEn: 'Deployments',
        path: '/flow/manager',
        icon: 'iconfont iconicon_cloud_history',
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
        icon: 'iconfont iconicon_GPS',
        sort: 3,
        api: ['* /api/blade-flow/follow/**', 'GET /api/blade-flow/process/**'],
        buttons: [{ code: 'flow_follow_delete', name: '删除流程', nameEn: 'Delete process' }],
      },
    ],
  },
  {
    section: 'work',
    menus: [
      {
        code: 'work_start',
        name: '发起事务',
        nameEn: 'Start a request',
        path: '/work/start',
        icon: 'iconfont iconicon_compile',
        sort: 1,
        api: ['GET /api/blade-flow/work/start-list', '* /api/blade-desk/process/leave/**'],
        buttons: [{ code: 'work_start_leave', name: '请假申请', nameEn: 'Apply for leave' }],
      },
      {
        code: 'work_claim',
        name: '待签事务',
        nameEn: 'To claim',
        path: '/work/claim',
        icon: 'iconfont iconicon_ding',
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
        icon: 'iconfont iconicon_savememo',
        sort: 3,
        api: [
          'GET /api/blade-flow/work/todo-list',
          'POST /api/blade-flow/work/complete-task',
          'POST /api/blade-flow/work/delegate-task',
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
        icon: 'iconfont iconicon_doc',
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
        icon: 'iconfont iconicon_dispose',
        sort: 5,
        api: [
          'GET /api/blade-flow/work/done-list',
          'GET /api/blade-flow/process/**',
          'GET /api/blade-desk/process/leave/detail',
        ],
      },
    ],
  },
];
