import type { FastifyInstance } from 'fastify';
import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { logHooks } from './hooks';
import { purgeOldLogs, purgeOldLogsEverywhere, RETENTION_DEFAULTS, logRetentionService } from './retention';
import { logRoutes, UPLOAD_MAX } from './routes';

export { logUsual, type UsualEvent } from '@sprout/core/usual-log';
export type { LogBuffers } from './hooks';
export { purgeOldLogs, purgeOldLogsEverywhere, RETENTION_DEFAULTS };

registerMessages({
  zh: {
    'log.uploaded': '日志上传成功',
    'log.logsRequired': '请上传至少一条日志',
    'log.tooMany': `一次最多上传 ${UPLOAD_MAX} 条日志`,
    'log.entryTooLong': '日志内容过长',
  },
  en: {
    'log.uploaded': 'Log upload sent',
    'log.logsRequired': 'Upload at least one log entry',
    'log.tooMany': `Upload at most ${UPLOAD_MAX} log entries at a time`,
    'log.entryTooLong': 'This log entry is too long',
  },
});

/** Writes every buffered log row now (tests, and before a read that must see them). */
export const flushLogs = (app: FastifyInstance) => app.logBuffers.flush();

/**
 * The log context (issue 17, spec §7 "Logs"): the API log (every write call), the error log
 * (server 5xx and the browser's uploads; platform administrator only), the usual log
 * (business events through `logUsual`), their retention, and their three console screens.
 */
export const logContext: ServerContext = {
  name: 'log',
  hooks: logHooks,
  routes: logRoutes,
  workerServices: [logRetentionService],
  menus: [
    {
      section: 'log',
      menus: [
        {
          code: 'log_usual',
          name: '通用日志',
          nameEn: 'General log',
          path: '/monitor/log/usual',
          icon: 'FileInfo',
          sort: 1,
          api: ['GET /api/blade-log/usual/**'],
          buttons: [{ code: 'log_usual_view', name: '查看', nameEn: 'View', api: ['GET /api/blade-log/usual/detail'] }],
        },
        {
          code: 'log_api',
          name: '接口日志',
          nameEn: 'API log',
          path: '/monitor/log/api',
          icon: 'FileCode',
          sort: 2,
          api: ['GET /api/blade-log/api/**'],
          buttons: [{ code: 'log_api_view', name: '查看', nameEn: 'View', api: ['GET /api/blade-log/api/detail'] }],
        },
        {
          code: 'log_error',
          name: '错误日志',
          nameEn: 'Error log',
          path: '/monitor/log/error',
          icon: 'FileAlert',
          sort: 3,
          platformOnly: true,
          api: ['GET /api/blade-log/error/**'],
          buttons: [{ code: 'log_error_view', name: '查看', nameEn: 'View', api: ['GET /api/blade-log/error/detail'] }],
        },
        {
          // The job queues' depth, and (server mode, platform administrator) the queue board.
          code: 'monitor_queues',
          name: '任务队列',
          nameEn: 'Job queues',
          path: '/monitor/log/queues',
          icon: 'ListDetails',
          sort: 4,
          platformOnly: true,
          api: ['GET /api/admin/queue-depth'],
        },
      ],
    },
  ],
};
