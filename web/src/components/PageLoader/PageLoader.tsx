import { Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './PageLoader.module.css';

/** Shown while a lazily loaded page arrives; `inline` inside the layout's content area. */
export function PageLoader({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={inline ? `${classes.root} ${classes.inline}` : classes.root} role="status" aria-live="polite">
      <Loader size="md" aria-hidden />
      <span className={classes.label}>{t('common.loading')}</span>
    </div>
  );
}
