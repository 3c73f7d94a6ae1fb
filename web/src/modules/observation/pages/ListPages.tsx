import { useTranslation } from 'react-i18next';
import { RecordFamilyList } from '../../../kit/records';
import { creviewFamily, creviewTyFamily } from '../families/creview';
import { hearkenFamily } from '../families/hearken';
import { observationFamily } from '../families/observation';
import { regionalFamily } from '../families/regional';
import { useCreviewLayout } from '../useCreviewLayout';

/** 观察记录 (menu `observation_list`): mine, approved, excellent, favourites. */
export function ObservationListPage() {
  const { t } = useTranslation();
  return (
    <RecordFamilyList
      family={observationFamily}
      tabs={['mine', 'approved', 'excellent', 'favourites']}
      title={t('menu.observation_list')}
    />
  );
}

/** 待审核观察 (menu `observation_trial`): the review queue. */
export function ObservationTrialPage() {
  const { t } = useTranslation();
  return <RecordFamilyList family={observationFamily} tabs={['trial']} title={t('menu.observation_trial')} />;
}

export function RegionalListPage() {
  const { t } = useTranslation();
  return <RecordFamilyList family={regionalFamily} title={t('menu.observation_regional')} />;
}

export function HearkenListPage() {
  const { t } = useTranslation();
  return <RecordFamilyList family={hearkenFamily} title={t('menu.hearken')} />;
}

/** 主题审议: rows open the tenant's layout. */
export function CreviewListPage() {
  const { t } = useTranslation();
  const layout = useCreviewLayout();
  return <RecordFamilyList family={layout === 'ty' ? creviewTyFamily : creviewFamily} title={t('menu.creview')} />;
}
