import { AppError } from '../errors';
import { registerMessages } from '../i18n';

registerMessages({
  zh: {
    'error.versionConflict': '该记录已被他人修改，请刷新后重试',
    'error.streamArchived': '该记录已归档，不能再修改',
    'error.idempotencyKeyReused': '幂等键已用于另一条记录',
    'error.unknownStreamType': '不支持查看此类记录的状态：{type}',
    'events.erased': '已删除',
  },
  en: {
    'error.versionConflict': 'This record was changed by someone else; refresh and try again',
    'error.streamArchived': 'This record is archived and can no longer be changed',
    'error.idempotencyKeyReused': 'This idempotency key was already used for another record',
    'error.unknownStreamType': 'The state of this kind of record cannot be shown: {type}',
    'events.erased': 'erased',
  },
});

/**
 * Optimistic concurrency failed: the stream is not at the version the writer expected
 * (or, rarely, a transaction older than the stream's last writer tried to append; see
 * docs/EVENTS.md "Order"). Retrying the command on fresh state is always safe.
 * It is an AppError, so the HTTP layer answers 409 `version_conflict` without a mapping.
 */
export class VersionConflictError extends AppError {
  constructor(
    readonly streamId: string,
    readonly expected: number | 'no_stream' | 'any',
    readonly actual: number | null,
  ) {
    super('version_conflict', 'error.versionConflict');
    this.name = 'VersionConflictError';
    this.message = `version conflict on stream ${streamId}: expected ${expected}, actual ${actual ?? 'none'}`;
  }
}

export class StreamArchivedError extends AppError {
  constructor(readonly streamId: string) {
    super('conflict', 'error.streamArchived');
    this.name = 'StreamArchivedError';
  }
}

/** The idempotency key was first used for another stream: a client bug, never a retry. */
export class IdempotencyKeyReusedError extends AppError {
  constructor(
    readonly key: string,
    readonly streamId: string,
  ) {
    super('conflict', 'error.idempotencyKeyReused');
    this.name = 'IdempotencyKeyReusedError';
  }
}

export class UnknownStreamTypeError extends AppError {
  constructor(readonly streamType: string) {
    super('not_found', 'error.unknownStreamType', { type: streamType });
    this.name = 'UnknownStreamTypeError';
  }
}

/** A broken business rule in `decide`: a stable code and message key for the caller. */
export class DomainError extends AppError {
  constructor(messageKey: string, params?: Record<string, string | number>) {
    super('conflict', messageKey, params);
    this.name = 'DomainError';
  }
}
