/**
 * The week document's shape is the server's (`@sprout/contracts`, week-doc.ts: pure, yjs
 * only), so the browser reads and writes exactly what the collab service seeds and the API saves.
 */
export {
  docToWeekContent,
  fragmentToRich,
  richToFragment,
  setText,
  WEEK_DAY_TEXT_FIELDS,
  WEEK_DAYS,
  WEEK_MAP,
  WEEK_RICH_FIELDS,
  WEEK_SCALAR_FIELDS,
  type WeekDocContent,
  weekContentToDoc,
} from '@sprout/contracts';
