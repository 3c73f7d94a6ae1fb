/** Moved to the record-family kit (`web/src/kit/records/model/history.ts`); the week's imports keep working. */
export * from '../../../kit/records/model/history';
