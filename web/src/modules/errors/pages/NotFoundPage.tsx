import { Button } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { LanguageSwitch } from '../../../components/LanguageSwitch/LanguageSwitch';
import { SproutMark } from '../../../components/SproutMark/SproutMark';
import { NotFoundIllustration } from '../components/NotFoundIllustration/NotFoundIllustration';
import classes from './NotFoundPage.module.css';

export function NotFoundPage() {
  const { t } = useTranslation();

  return (
    <div className={classes.root}>
      <header className={classes.topbar}>
        <Link to={PATHS.root} className={classes.brand}>
          <SproutMark size={32} />
          <span>{t('app.title')}</span>
        </Link>
        <LanguageSwitch />
      </header>

      <main className={classes.main}>
        <div className={classes.illustration}>
          <NotFoundIllustration />
        </div>
        <h1 className={classes.title}>{t('notFound.title')}</h1>
        <p className={classes.text}>{t('notFound.text')}</p>
        <Button
          component={Link}
          to={PATHS.root}
          size="md"
          radius="xl"
          leftSection={<IconHome size={18} />}
          data-testid="not-found-home"
          className={classes.home}
        >
          {t('common.backHome')}
        </Button>
      </main>
    </div>
  );
}
