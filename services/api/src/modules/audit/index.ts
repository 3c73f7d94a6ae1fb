import type { FastifyInstance } from 'fastify';
import '@sprout/core/events/catalog';
import { ensureReadModels } from '@sprout/core/events';
import { registerMessages } from '@sprout/core/i18n';
import { auditRoutes } from './routes';
import type { ServerContext } from '../../context';
import { AUDIT_MENUS } from './menus';

registerMessages({
  zh: {
    'audit.versionOrAt': '只能指定 version 或 at 之一',
    'audit.diffOrder': 'from 不能大于 to',
    'audit.versionBeyond': '版本超出范围，当前版本为 {version}',
  },
  en: {
    'audit.versionOrAt': 'give either version or at, not both',
    'audit.diffOrder': 'from must not be greater than to',
    'audit.versionBeyond': 'version out of range; the current version is {version}',
  },
});

/**
 * Audit and replay of event-sourced records (docs/EVENTS.md): streams touched, a stream's
 * history, its state as of a version or instant, and field-level diffs.
 */
export async function auditModule(app: FastifyInstance) {
  // Inline read models must exist before the first command writes through them.
  app.addHook('onReady', async () => {
    await ensureReadModels(app.database);
  });
  await app.register(auditRoutes);
}

/** The audit context's manifest (services/api/src/context.ts). */
export const auditContext: ServerContext = { name: 'audit', routes: auditModule, menus: AUDIT_MENUS };
