import { lazyInContext } from '../../app/lazyContext';
import type { WeekSheetFacts } from './components/WeekSheet/WeekSheet';
import { weekNamespace } from './namespace';

export type { WeekSheetFacts };

/**
 * A week laid out like its printed plan, read only (what the auditors' console shows of a week
 * as of any version): its own chunk, rendered with the week's texts once both arrived.
 */
export const WeekSheet = lazyInContext<{ week: WeekSheetFacts; content: unknown }>(
  { name: 'week', i18n: weekNamespace },
  () => import('./components/WeekSheet/WeekSheet').then((m) => m.WeekSheet),
);
