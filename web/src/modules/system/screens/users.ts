import { choices, defineCrud } from '../../../kit/crud';

/** The server's patterns (services/api/src/modules/system/user-routes.ts), with its messages. */
const ACCOUNT = /^[A-Za-z0-9_.@-]{1,64}$/;
const PHONE = /^1[3-9]\d{9}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A user's status: 1 normal, 0 disabled (`update-status`). */
export const USER_STATUS = [
  { value: 1, label: 'system.user.statuses.enabled' },
  { value: 0, label: 'system.user.statuses.disabled' },
] as const;

/** The platform a user signs in from (BladeX `user_type`). */
export const USER_TYPES = choices('system.user.types', ['web', 'app', 'other']);

/**
 * Users (menu `user`, BladeX `/system/user`, docs/API.md "Users"): the tenant's users in the
 * caller's data scope beside the dept tree (a dept lists the users of it and the depts below),
 * searched by account and name; added with a first password, edited, viewed, deleted; a new
 * random password (shown once), enabling and disabling, each behind its button. The page adds
 * role grants, platform settings, registration approvals and the Excel import and export.
 */
export const users = defineCrud({
  code: 'user',
  texts: 'system.user',
  resource: '/blade-user',
  listPath: 'page',
  side: { url: '/blade-system/dept/tree', param: 'deptId', value: 'id', label: 'title', all: 'system.user.allDepts' },
  actions: [
    {
      key: 'reset',
      path: 'reset-password',
      param: 'userIds',
      button: 'user_reset',
      label: 'system.user.reset',
      confirm: 'system.user.resetConfirm',
      icon: 'key',
      reveals: 'password',
      title: 'account',
      revealTexts: 'system.user.newPassword',
      batch: 'only',
    },
    {
      key: 'disable',
      path: 'update-status',
      param: 'userIds',
      params: { status: 0 },
      when: { status: 1 },
      button: 'user_status',
      label: 'system.user.disable',
      confirm: 'system.user.disableConfirm',
      icon: 'lock',
      batch: true,
    },
    {
      key: 'enable',
      path: 'update-status',
      param: 'userIds',
      params: { status: 1 },
      when: { status: 0 },
      button: 'user_status',
      label: 'system.user.enable',
      confirm: 'system.user.enableConfirm',
      icon: 'unlock',
      batch: true,
    },
  ],
  columns: [
    {
      prop: 'account',
      search: true,
      sortable: true,
      width: 120,
      rules: { required: true, max: 64, pattern: [ACCOUNT, 'system.user.rules.accountFormat'] },
    },
    { prop: 'password', type: 'password', hide: true, addOnly: true, rules: { required: true, max: 128 } },
    { prop: 'realName', search: true, sortable: true, width: 110, rules: { required: true, max: 64 } },
    { prop: 'name', label: 'system.user.nickname', hide: true, rules: { max: 64 } },
    {
      prop: 'roleId',
      type: 'multiselect',
      hide: true,
      optionsFrom: { url: '/blade-system/role/tree', value: 'id', label: 'title' },
      rules: { required: true },
    },
    { prop: 'roleName', form: false },
    {
      prop: 'deptId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/dept/tree', value: 'id', label: 'title' },
      rules: { required: true },
    },
    { prop: 'deptName', form: false, sortable: true },
    {
      prop: 'postId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/post/select', value: 'id', label: 'postName' },
    },
    { prop: 'postName', form: false },
    { prop: 'phone', hide: true, rules: { max: 11, pattern: [PHONE, 'system.user.rules.phone'] } },
    { prop: 'email', hide: true, rules: { max: 255, pattern: [EMAIL, 'system.user.rules.email'] } },
    { prop: 'sex', type: 'select', hide: true, options: choices('system.user.sexes', ['male', 'female', 'unknown']) },
    { prop: 'birthday', type: 'date', hide: true },
    {
      prop: 'userType',
      type: 'select',
      width: 90,
      initial: 1,
      options: USER_TYPES,
      rules: { required: true },
    },
    { prop: 'status', type: 'select', form: false, width: 80, options: USER_STATUS },
  ],
});

/** Pending registrations (`audit-list`), approved or refused several at a time. */
export const registrations = defineCrud({
  resource: '/blade-user',
  texts: 'system.user',
  listPath: 'audit-list',
  buttons: {},
  testId: 'user-audit',
  actions: [
    {
      key: 'pass',
      path: 'audit-pass',
      param: 'userIds',
      button: 'user_approve',
      label: 'system.user.audit.pass',
      confirm: 'system.user.audit.passConfirm',
      icon: 'check',
      batch: true,
    },
    {
      key: 'refuse',
      path: 'audit-refuse',
      param: 'userIds',
      button: 'user_approve',
      label: 'system.user.audit.refuse',
      confirm: 'system.user.audit.refuseConfirm',
      icon: 'cross',
      batch: true,
    },
  ],
  columns: [
    { prop: 'account', width: 160 },
    { prop: 'realName', width: 140 },
    { prop: 'name', label: 'system.user.nickname' },
    { prop: 'createTime', width: 170 },
  ],
});
