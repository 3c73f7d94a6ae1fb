/**
 * @sprout/contracts: what the server and the browser share, browser-safe (zod and yjs only;
 * no node:, no database, no Fastify). The week family's content schemas and types, the
 * rich-text sanitiser, the live document's name and Y.Doc shape. Modules that the browser
 * loads at runtime (week-doc, rich-text, week-fields, doc-name) do not import zod; it reaches
 * the bundle only through the schemas (week), which the browser imports for their types only.
 */
export * from './doc-name';
export * from './rich-sanitize';
export * from './rich-text';
export * from './week';
export * from './week-doc';
export * from './week-fields';
