/**
 * The `layout` namespace (the main layout: sidebar, top bar, tabs, themes, lock, error log, iframe), in Chinese (the default): `t('layout.<key>')`.
 * `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  sidebar: {
    label: '主菜单',
    failed: '菜单加载失败',
    empty: '暂无可用菜单',
  },
  topMenu: {
    label: '顶部菜单',
    home: '首页',
  },
  search: {
    placeholder: '搜索菜单',
  },
  menuSearch: {
    title: '菜单搜索',
    open: '菜单搜索 (Ctrl + K)',
    placeholder: '输入菜单名称的开头，例如“用户”',
    hintBefore: '按',
    hintAfter: '关闭',
    empty: '没有以此开头的菜单',
  },
  topBar: {
    expand: '展开侧边栏',
    collapse: '收起侧边栏',
    tutorial: '平台教程',
    fullscreen: '全屏',
    exitFullscreen: '退出全屏',
  },
  tabs: {
    label: '已打开的页面',
    close: '关闭标签',
    more: '标签操作',
    clearCache: '清除缓存',
    clearCacheConfirm: '确定清除缓存吗？已打开页面中未保存的内容会丢失。',
    cacheCleared: '清除缓存成功',
    closeOthers: '关闭其他',
    closeOthersConfirm: '确定关闭其他标签吗？',
    closeAll: '关闭全部',
    closeAllConfirm: '确定关闭全部标签吗？',
  },
  theme: {
    label: '主题',
    names: {
      default: '默认',
      white: '白色',
      dark: '暗黑',
      star: '星空',
      bule: '海蓝',
      iview: 'iView',
      vip: '尊享',
      cool: '炫彩',
      d2: 'D2',
      hey: '活力',
      lte: 'LTE',
    },
  },
  color: {
    label: '主题色',
    invalid: '请输入 #RRGGBB 格式的颜色',
    hex: '颜色值',
    reset: '恢复默认',
  },
  user: {
    menu: '用户菜单',
    tenant: '租户 {{tenant}}',
    dashboard: '控制台',
    info: '个人信息',
    logout: '退出登录',
    logoutConfirm: '确定退出系统吗？',
  },
  lock: {
    label: '锁屏',
    title: '设置锁屏密码',
    intro: '锁屏后需要输入这个密码才能回到平台。密码只在本次浏览器会话中有效。',
    password: '锁屏密码',
    passwordPlaceholder: '请输入锁屏密码',
    passwordRequired: '锁屏密码不能为空',
    submit: '锁屏',
    unlock: '解锁',
    unlockPlaceholder: '输入锁屏密码解锁',
    wrongPassword: '锁屏密码不正确',
    logout: '退出登录',
  },
  errorLog: {
    title: '错误日志',
    empty: '一切正常，没有错误记录',
    count: '共 {{count}} 条记录',
    upload: '上传服务器',
    uploadConfirm: '确定把本地错误日志上传到服务器吗？',
    uploaded: '日志上传成功',
    uploadFailed: '日志上传失败',
    clear: '清空本地日志',
    clearConfirm: '确定清空本地错误日志吗？',
    cleared: '本地日志已清空',
    url: '页面：',
    info: '位置：',
  },
  iframe: {
    missingTitle: '找不到这个页面',
    missing: '这个外部页面不在您的菜单中，或地址无效。',
    openNew: '在新窗口打开',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type LayoutMessages = typeof zhCN;
