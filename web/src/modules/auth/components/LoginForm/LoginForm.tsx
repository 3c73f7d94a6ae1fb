import { Alert, Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconBuildingCommunity, IconLock, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../../components/LanguageSwitch/LanguageSwitch';
import { DEFAULT_TENANT_ID } from '../../../../config/constants';
import type { TokenResponse } from '../../api/loginByUsername';
import { type LoginFailure, useLoginForm } from '../../hooks/useLoginForm';
import classes from './LoginForm.module.css';

interface LoginFormProps {
  onSuccess: (token: TokenResponse) => void;
}

const FAILURE_KEY = {
  unknown: 'errors.unknown',
  network: 'errors.network',
  timeout: 'errors.timeout',
} as const;

/** Account login card: tenant number, account, password (spec §2 Login, §5). */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useTranslation();
  const [passwordVisible, setPasswordVisible] = useState(false);
  const form = useLoginForm({
    initialValues: { tenantId: DEFAULT_TENANT_ID, username: '', password: '' },
    onSuccess,
  });
  const { values, errors } = form;

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
          {t('auth.login.subtitle')}
        </Text>
      </header>

      <form
        className={classes.form}
        onSubmit={form.submit}
        noValidate
        aria-describedby={form.failure ? 'login-error' : undefined}
      >
        <TextInput
          ref={form.registerInput('tenantId')}
          name="tenantId"
          data-testid="login-tenant"
          label={t('auth.login.tenant.label')}
          placeholder={t('auth.login.tenant.placeholder')}
          withAsterisk
          aria-required
          autoComplete="organization"
          inputMode="numeric"
          size="md"
          leftSection={<IconBuildingCommunity size={18} stroke={1.6} />}
          value={values.tenantId}
          onChange={(event) => form.setValue('tenantId', event.currentTarget.value)}
          onBlur={() => form.validateOnBlur('tenantId')}
          error={errors.tenantId && t(errors.tenantId)}
        />
        <TextInput
          ref={form.registerInput('username')}
          name="username"
          data-testid="login-account"
          label={t('auth.login.account.label')}
          placeholder={t('auth.login.account.placeholder')}
          withAsterisk
          aria-required
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          size="md"
          leftSection={<IconUser size={18} stroke={1.6} />}
          value={values.username}
          onChange={(event) => form.setValue('username', event.currentTarget.value)}
          onBlur={() => form.validateOnBlur('username')}
          error={errors.username && t(errors.username)}
        />
        <PasswordInput
          ref={form.registerInput('password')}
          name="password"
          data-testid="login-password"
          label={t('auth.login.password.label')}
          placeholder={t('auth.login.password.placeholder')}
          withAsterisk
          aria-required
          autoComplete="current-password"
          size="md"
          leftSection={<IconLock size={18} stroke={1.6} />}
          visible={passwordVisible}
          onVisibilityChange={setPasswordVisible}
          visibilityToggleFocusable
          visibilityToggleButtonProps={{
            'aria-label': passwordVisible ? t('auth.login.password.hide') : t('auth.login.password.show'),
            'data-testid': 'login-password-toggle',
          }}
          value={values.password}
          onChange={(event) => form.setValue('password', event.currentTarget.value)}
          onBlur={() => form.validateOnBlur('password')}
          error={errors.password && t(errors.password)}
        />

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

      <Text size="xs" c="dimmed" ta="center" className={classes.help}>
        {t('auth.login.help')}
      </Text>
    </div>
  );
}
