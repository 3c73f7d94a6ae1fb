import { page } from '../../app/context';
import { lazyInContext } from '../../app/lazyContext';
import { weekContext } from '.';

/**
 * The teaching figures the home pages show (they bring the chart library): their own chunk,
 * rendered with the week's texts once both arrived.
 */
export const WeekDashboard = lazyInContext(
  weekContext,
  page(() => import('./components/WeekDashboard/WeekDashboard'), 'WeekDashboard'),
);
