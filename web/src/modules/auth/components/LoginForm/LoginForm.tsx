import { Alert, Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { type Icon, IconAlertCircle, IconBuildingCommunity, IconLock, IconUser } from '@tabler/icons-react';
import { type ChangeEvent, lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../../components/LanguageSwitch/LanguageSwitch';
import { website } from '../../../../config/website';
import type { TokenResponse } from '../../api/token';
import { useCaptcha } from '../../hooks/useCaptcha';
import { type LoginFailure, useLoginForm } from '../../hooks/useLoginForm';
import { useSocialSources } from '../../hooks/useSocialSources';
import type { LoginField } from '../../validation';
import { type LoginFieldText, loginFieldLook } from './loginFieldLook';
import classes from './LoginForm.module.css';

// Only deployments that turn them on download these (they bring the tooltip machinery).
const CaptchaField = lazy(() => import('../CaptchaField/CaptchaField').then((m) => ({ default: m.CaptchaField })));
const ThirdPartyLogin = lazy(() =>
  import('../ThirdPartyLogin/ThirdPartyLogin').then((m) => ({ default: m.ThirdPartyLogin })),
);

interface LoginFormProps {
  /** The tenant inferred from the domain (`tenant/info`); the tenant field is hidden then. */
  tenantFromDomain: string | null;
  /** The tenant's name, shown when it comes from the domain. */
  tenantName?: string;
  onSuccess: (token: TokenResponse) => void;
}

/**
 * The server's answers that ask for a captcha (docs/API.md, Brute force): after failed
 * sign-ins it wants one even when the captcha is off, and an address past its limit may
 * go on with one.
 */
const CAPTCHA_DEMANDS = new Set(['captcha_required', 'captcha_invalid', 'ip_locked']);

const FAILURE_KEY = {
  unknown: 'errors.unknown',
  network: 'errors.network',
  timeout: 'errors.timeout',
} as const;

/** Account login card: tenant number, account, password, captcha, third-party sign-in (spec §2 Login, §5). */
export function LoginForm({ tenantFromDomain, tenantName, onSuccess }: LoginFormProps) {
  const { t } = useTranslation();
  const [passwordVisible, setPasswordVisible] = useState(false);
  // The server asked for a captcha (after failed sign-ins), so it is shown from now on.
  const [captchaDemanded, setCaptchaDemanded] = useState(false);
  const shown = useMemo(
    () => ({ tenant: website.tenantMode && !tenantFromDomain, captcha: website.captchaMode || captchaDemanded }),
    [tenantFromDomain, captchaDemanded],
  );
  const captcha = useCaptcha(shown.captcha);
  const form = useLoginForm({
    initialValues: {
      tenantId: tenantFromDomain ?? website.defaultTenantId,
      username: '',
      password: '',
      captcha: '',
    },
    shown,
    fixedTenantId: shown.tenant ? null : (tenantFromDomain ?? website.defaultTenantId),
    captchaKey: captcha.key,
    onFailure: (errorCode) => {
      if (shown.captcha) {
        form.setValue('captcha', '');
        void captcha.refresh();
      } else if (errorCode && CAPTCHA_DEMANDS.has(errorCode)) {
        setCaptchaDemanded(true); // shown now: useCaptcha fetches the first one
      }
    },
    onSuccess,
  });
  const { values, errors } = form;
  const tenantId = shown.tenant ? values.tenantId : (tenantFromDomain ?? website.defaultTenantId);
  const socialSources = useSocialSources(tenantId);

  /** A field of the card bound to the form: its value, checked on blur, focused when the first wrong one. */
  const field = (name: Exclude<LoginField, 'captcha'>, text: LoginFieldText, FieldIcon: Icon) => ({
    ...loginFieldLook(t, text, FieldIcon),
    ref: form.registerInput(name),
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => form.setValue(name, event.currentTarget.value),
    onBlur: () => form.validateOnBlur(name),
    error: errors[name] && t(errors[name]),
  });

  const failureText = (failure: LoginFailure) =>
    failure.kind === 'server' ? failure.text : t(FAILURE_KEY[failure.kind]);

  return (
    <div className={classes.card}>
      <div className={classes.toolbar}>
        <LanguageSwitch />
      </div>

      <header className={classes.header}>
        <h2 className={classes.title}>{t('auth.login.title')}</h2>
        <Text c="dimmed" size="sm">
          {tenantFromDomain && tenantName
            ? t('auth.login.subtitleTenant', { tenant: tenantName })
            : t('auth.login.subtitle')}
        </Text>
      </header>

      <form
        className={classes.form}
        onSubmit={(event) => void form.submit(event)}
        noValidate
        aria-describedby={form.failure ? 'login-error' : undefined}
      >
        {shown.tenant && (
          <TextInput
            {...field('tenantId', 'tenant', IconBuildingCommunity)}
            data-testid="login-tenant"
            autoComplete="organization"
            inputMode="numeric"
          />
        )}
        <TextInput
          {...field('username', 'account', IconUser)}
          data-testid="login-account"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
        />
        <PasswordInput
          {...field('password', 'password', IconLock)}
          data-testid="login-password"
          autoComplete="current-password"
          visible={passwordVisible}
          onVisibilityChange={setPasswordVisible}
          visibilityToggleFocusable
          visibilityToggleButtonProps={{
            'aria-label': passwordVisible ? t('auth.login.password.hide') : t('auth.login.password.show'),
            'data-testid': 'login-password-toggle',
          }}
        />
        {shown.captcha && (
          <Suspense fallback={null}>
            <CaptchaField
              value={values.captcha ?? ''}
              error={errors.captcha && t(errors.captcha)}
              image={captcha.image}
              loading={captcha.loading}
              failed={captcha.failed}
              inputRef={form.registerInput('captcha')}
              onChange={(value) => form.setValue('captcha', value)}
              onBlur={() => form.validateOnBlur('captcha')}
              onRefresh={() => void captcha.refresh()}
            />
          </Suspense>
        )}

        {form.failure && (
          <Alert
            id="login-error"
            data-testid="login-error"
            variant="light"
            color="red"
            radius="md"
            icon={<IconAlertCircle size={18} />}
            title={t('auth.login.failedTitle')}
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={form.dismissFailure}
          >
            {failureText(form.failure)}
          </Alert>
        )}

        <Button
          type="submit"
          data-testid="login-submit"
          size="md"
          fullWidth
          loading={form.submitting}
          className={classes.submit}
        >
          {t('auth.login.submit')}
        </Button>
      </form>

      {socialSources.length > 0 && (
        <Suspense fallback={null}>
          <ThirdPartyLogin tenantId={tenantId} sources={socialSources} />
        </Suspense>
      )}

      <Text size="xs" c="dimmed" ta="center" className={classes.help}>
        {t('auth.login.help')}
      </Text>
    </div>
  );
}
