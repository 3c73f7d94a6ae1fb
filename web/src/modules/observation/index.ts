import { familyLabels } from '../../kit/records/registry';
import { lazyNamespace, type WebContext } from '../../app/context';
import { recordsPage } from '../../kit/records/namespace';
import type { ObservationMessages } from './i18n/zh-CN';

const list = (
  name: 'ObservationListPage' | 'ObservationTrialPage' | 'RegionalListPage' | 'HearkenListPage' | 'CreviewListPage',
) => recordsPage(() => import('./pages/ListPages'), name);
const details = (
  name:
    | 'ObservationDetailsPage'
    | 'AutoObservationDetailsPage'
    | 'ShareDetailsPage'
    | 'RegionalDetailsPage'
    | 'HearkenDetailsPage'
    | 'CreviewDetailsPage'
    | 'CreviewDetailsTyPage',
) => recordsPage(() => import('./pages/DetailsPages'), name);

/** Observations, area observations, theme reviews and listening records (issue 18), on the record-family kit. */
export const observationContext: WebContext<'observation', ObservationMessages> = {
  name: 'observation',
  i18n: lazyNamespace('observation', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  // The details page of each kind (an observation's page shows each of its three types; a
  // theme review's opens in the tenant's layout from the standard one).
  recordRoutes: {
    observation: '/observation/observationDetails',
    observation_regional: '/observation_regional/observationRegionalDetails',
    hearken: '/hearken/hearkenDetails',
    creview: '/creview/creviewDetails',
  },
  recordLabels: {
    observation: familyLabels(() => import('./families/observation').then((m) => m.observationFamily)),
    observation_regional: familyLabels(() => import('./families/regional').then((m) => m.regionalFamily)),
    hearken: familyLabels(() => import('./families/hearken').then((m) => m.hearkenFamily)),
    creview: familyLabels(() => import('./families/creview').then((m) => m.creviewFamily)),
  },
  pages: [
    {
      path: '/observation/observationDetails',
      load: details('ObservationDetailsPage'),
      titleKey: 'route.observationDetails',
      icon: 'Eye',
      keepAlive: true,
    },
    {
      path: '/observation/shareDetails',
      load: details('ShareDetailsPage'),
      titleKey: 'route.shareDetails',
      icon: 'Eye',
      keepAlive: true,
    },
    {
      path: '/observation/autoObservationDetails',
      load: details('AutoObservationDetailsPage'),
      titleKey: 'route.autoObservationDetails',
      icon: 'Eye',
      keepAlive: true,
    },
    {
      path: '/observation_regional/observationRegionalDetails',
      load: details('RegionalDetailsPage'),
      titleKey: 'route.observationRegionalDetails',
      icon: 'LayoutGrid',
      keepAlive: true,
    },
    {
      path: '/hearken/hearkenDetails',
      load: details('HearkenDetailsPage'),
      titleKey: 'route.hearkenDetails',
      icon: 'Ear',
    },
    {
      path: '/creview/creviewDetails',
      load: details('CreviewDetailsPage'),
      titleKey: 'route.creviewDetails',
      icon: 'Messages',
    },
    {
      path: '/creview/creviewDetailsTy',
      load: details('CreviewDetailsTyPage'),
      titleKey: 'route.creviewDetailsTy',
      icon: 'Messages',
    },
  ],
  menuPages: {
    observation_list: list('ObservationListPage'),
    observation_trial: list('ObservationTrialPage'),
    observation_regional: list('RegionalListPage'),
    hearken: list('HearkenListPage'),
    creview: list('CreviewListPage'),
  },
};
