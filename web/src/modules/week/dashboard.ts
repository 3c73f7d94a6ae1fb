import { page } from '../../app/context';
import { lazyInContext } from '../../app/lazyContext';
import { weekNamespace } from './namespace';

/**
 * The teaching figures the home pages show (they bring the chart library): their own chunk,
 * rendered with the week's texts once both arrived.
 */
export const WeekDashboard = lazyInContext(
  { name: 'week', i18n: weekNamespace },
  page(() => import('./components/WeekDashboard/WeekDashboard'), 'WeekDashboard'),
);
