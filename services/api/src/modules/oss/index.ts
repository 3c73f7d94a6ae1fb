import type { ServerContext } from '../../context';

export {
  announceStoreChange,
  assertKey,
  assertSafeKey,
  BadKeyError,
  dropStore,
  LengthMismatchError,
  LocalStore,
  ObjectMissingError,
  type ObjectStore,
  objectKey,
  S3Store,
  storeFor,
  watchStores,
} from './store';

/** Object storage (issue 17): the tenants' storage configurations and the stores files go to. */
export const ossContext: ServerContext = {
  name: 'oss',
};
