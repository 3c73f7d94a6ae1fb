import { page } from '../../app/context';
import { lazyInContext } from '../../app/lazyContext';
import { guideNamespace } from './namespace';

/** The home page's observation figures: their own chunk, rendered with the context's texts. */
export const GuideDashboard = lazyInContext(
  { name: 'guide', i18n: guideNamespace },
  page(() => import('./components/GuideDashboard'), 'GuideDashboard'),
);
