import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { SproutMark } from '../../../../components/SproutMark/SproutMark';
import classes from './Logo.module.css';

/** Spec §2: the short logo when the sidebar is collapsed, the index title when expanded. */
export function Logo({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  return (
    <Link
      to={PATHS.home}
      className={classes.root}
      data-collapsed={collapsed || undefined}
      aria-label={t('app.title')}
      data-testid="sidebar-logo"
    >
      <SproutMark size={30} className={classes.mark} />
      {!collapsed && <span className={classes.title}>{t('app.title')}</span>}
    </Link>
  );
}
