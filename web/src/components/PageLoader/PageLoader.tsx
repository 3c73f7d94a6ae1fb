import { Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './PageLoader.module.css';

/** Shown while a lazily loaded page arrives. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className={classes.root} role="status" aria-live="polite">
      <Loader size="md" aria-hidden />
      <span className={classes.label}>{t('common.loading')}</span>
    </div>
  );
}
