import { notifications } from '@mantine/notifications';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import type { TokenResponse } from '../api/loginByUsername';
import { BrandPanel } from '../components/BrandPanel/BrandPanel';
import { LoginForm } from '../components/LoginForm/LoginForm';
import { saveSession } from '../session';
import classes from './LoginPage.module.css';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const handleSuccess = useCallback(
    (token: TokenResponse) => {
      saveSession(token);
      notifications.show({ color: 'leaf', message: t('auth.login.succeeded') });
      navigate(PATHS.root, { replace: true });
    },
    [navigate, t],
  );

  return (
    <div className={classes.root}>
      <BrandPanel />
      <main className={classes.main}>
        <LoginForm onSuccess={handleSuccess} />
      </main>
    </div>
  );
}
