import { notifications } from '@mantine/notifications';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { completeSignIn } from '../../../app/sessionActions';
import type { TokenResponse } from '../api/token';
import { BrandPanel } from '../components/BrandPanel/BrandPanel';
import { LoginForm } from '../components/LoginForm/LoginForm';
import { useTenantInfo } from '../hooks/useTenantInfo';
import classes from './LoginPage.module.css';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tenant = useTenantInfo();

  const handleSuccess = useCallback(
    (token: TokenResponse) => {
      completeSignIn(token);
      notifications.show({ color: 'leaf', message: t('auth.login.succeeded') });
      navigate(PATHS.root, { replace: true });
    },
    [navigate, t],
  );

  return (
    <div className={classes.root}>
      <BrandPanel backgroundUrl={tenant.backgroundUrl} />
      <main className={classes.main}>
        <LoginForm tenantFromDomain={tenant.tenantId} tenantName={tenant.tenantName} onSuccess={handleSuccess} />
      </main>
    </div>
  );
}
