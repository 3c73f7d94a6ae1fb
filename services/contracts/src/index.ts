/**
 * @sprout/contracts: what the server and the browser share, browser-safe (zod and yjs only;
 * no node:, no database, no Fastify). The week family's content schemas and types, the
 * requests and answers of its routes, the record JSON and the edit rule, the live document's
 * name and Y.Doc shape. Modules that the browser loads at runtime (week-doc, rich-text,
 * week-fields, doc-name, records, week-api) do not import zod; it reaches the bundle only
 * through the schemas (week, week-requests, record-requests, ids, record-answers, week-answers), which the
 * browser imports for their types only.
 */
export * from './clients';
export * from './doc-name';
export * from './ids';
export * from './late-text';
export * from './observation';
export * from './record-answers';
export * from './record-requests';
export * from './record-doc';
export * from './records';
export * from './rich-sanitize';
export * from './rich-text';
export * from './teaching';
export * from './week';
export * from './week-answers';
export * from './week-api';
export * from './week-doc';
export * from './week-fields';
export * from './week-requests';
