import { Alert, Button, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { completeSignIn, logout } from '../../../app/sessionActions';
import { website } from '../../../config/website';
import { getStore } from '../../../lib/storage';
import { loginBySocial, type LoginResult } from '../api/token';
import { BrandPanel } from '../components/BrandPanel/BrandPanel';
import { RegisterDialog } from '../components/RegisterDialog/RegisterDialog';
import { SOCIAL_TENANT_KEY } from '../components/ThirdPartyLogin/ThirdPartyLogin';
import { useTenantInfo } from '../hooks/useTenantInfo';
import { type GuestSession, guestStore, isGuestToken } from '../session';
import classes from './LoginPage.module.css';

type Phase =
  | { kind: 'working' }
  | { kind: 'failed'; message: string | null }
  | { kind: 'register'; guest: GuestSession }
  | { kind: 'registered'; message: string };

/** One exchange per code: the provider's code is single-use (and StrictMode mounts twice). */
const exchanges = new Map<string, Promise<LoginResult>>();

/**
 * The provider's redirect back (`/oauth/redirect/:source?code&state`): signs in with the
 * code; a user with no local account gets the registration dialog (spec §2, §4).
 */
export function SocialCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { source = '' } = useParams();
  const [search] = useSearchParams();
  const tenant = useTenantInfo();
  const [phase, setPhase] = useState<Phase>({ kind: 'working' });
  const code = search.get('code') ?? '';
  const state = search.get('state') ?? '';

  useEffect(() => {
    if (!code || !state || !source) {
      setPhase({ kind: 'failed', message: t('auth.social.missing') });
      return;
    }
    const tenantId = getStore<string>(SOCIAL_TENANT_KEY, 'session') ?? website.defaultTenantId;
    let exchange = exchanges.get(code);
    if (!exchange) {
      exchange = loginBySocial({ tenantId, source, code, state });
      exchanges.set(code, exchange);
    }
    let alive = true;
    exchange.then(
      (result) => {
        if (!alive) return;
        if (!result.ok) {
          setPhase({ kind: 'failed', message: result.message });
          return;
        }
        const token = result.token;
        if (isGuestToken(token)) {
          const guest: GuestSession = {
            token: token.access_token,
            tenantId: token.tenant_id ?? tenantId,
            oauthId: token.oauth_id ?? '',
            userName: token.user_name ?? token.account ?? '',
            avatar: token.avatar ?? '',
          };
          guestStore.set(guest);
          setPhase({ kind: 'register', guest });
          return;
        }
        completeSignIn(token);
        navigate(PATHS.root, { replace: true });
      },
      () => alive && setPhase({ kind: 'failed', message: t('errors.network') }),
    );
    return () => {
      alive = false;
    };
  }, [code, state, source, navigate, t]);

  return (
    <div className={classes.root}>
      <BrandPanel backgroundUrl={tenant.backgroundUrl} />
      <main className={classes.main}>
        <Stack align="center" gap="md" maw={420} w="100%" data-testid="social-callback">
          {phase.kind === 'working' && (
            <>
              <Loader />
              <Text c="dimmed">{t('auth.social.working')}</Text>
            </>
          )}
          {phase.kind === 'failed' && (
            <>
              <Alert
                w="100%"
                color="red"
                variant="light"
                icon={<IconAlertCircle size={18} />}
                title={t('auth.login.failedTitle')}
                data-testid="social-error"
              >
                {phase.message ?? t('errors.unknown')}
              </Alert>
              <Button component={Link} to={PATHS.login} replace>
                {t('auth.social.backToLogin')}
              </Button>
            </>
          )}
        </Stack>
      </main>

      {phase.kind === 'register' && (
        <RegisterDialog
          guest={phase.guest}
          showTenant={website.tenantMode && !tenant.tenantId}
          onRegistered={(message) => setPhase({ kind: 'registered', message })}
          onCancel={() => void logout()}
        />
      )}

      <Modal
        opened={phase.kind === 'registered'}
        onClose={() => void logout()}
        withCloseButton={false}
        centered
        size="sm"
        closeOnClickOutside={false}
        data-testid="register-alert"
      >
        <Stack align="center" gap="md" py="sm">
          <IconCircleCheck size={48} color="var(--mantine-color-leaf-6)" />
          <Text ta="center" fw={500}>
            {phase.kind === 'registered' ? phase.message : ''}
          </Text>
          <Button onClick={() => void logout()} data-testid="register-alert-ok">
            {t('common.ok')}
          </Button>
        </Stack>
      </Modal>
    </div>
  );
}
