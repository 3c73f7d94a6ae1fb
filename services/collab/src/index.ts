import { createCollabPlugin } from './plugin';

/**
 * The live co-editing service (y-websocket protocol at /api/collab/:docName). Registered
 * by services/api/src/main.ts when SERVICES contains `collab`; tests register it with
 * `buildApp(config, { plugins: [collabPlugin] })` or `createCollabPlugin(options)`.
 */
export const collabPlugin = createCollabPlugin();

export { type CollabPluginOptions, COLLAB_PATH, createCollabPlugin } from './plugin';
export { type Admission, type CollabOptions, CollabServer, notifyDocChanged, notifyEpochRenewed } from './server';
export { type AccessResolver, type CollabUser, type DocAccess, RECORD_SCOPE_COLUMNS, recordAccess } from './access';
export { type AuthorshipOptions, fieldAuthorsSince } from './authorship';
export {
  closeSubmission,
  type DocRevision,
  docAuthorsSince,
  docState,
  dropLateUpdates,
  type LateUpdates,
  lateUpdatesOf,
  lateWeekContents,
  loadDocState,
  markRevision,
  markSubmitted,
  readRevision,
  renewEpoch,
  writeRecordContent,
  writeWeekContent,
} from './store';
