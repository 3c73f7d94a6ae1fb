import { Group, Loader, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { loginFieldLook } from '../LoginForm/loginFieldLook';
import classes from './CaptchaField.module.css';

interface CaptchaFieldProps {
  value: string;
  error?: string;
  image: string | null;
  loading: boolean;
  failed: boolean;
  inputRef: Ref<HTMLInputElement>;
  onChange(value: string): void;
  onBlur(): void;
  onRefresh(): void;
}

/** Captcha code input with the image beside it; a click on the image fetches a new one. */
export function CaptchaField(props: CaptchaFieldProps) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-start" wrap="nowrap">
      <TextInput
        {...loginFieldLook(t, 'captcha', IconShieldCheck)}
        ref={props.inputRef}
        className={classes.input}
        name="captcha"
        data-testid="login-captcha"
        autoComplete="off"
        maxLength={8}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        onBlur={props.onBlur}
        error={props.error}
      />
      <Tooltip label={t('auth.login.captcha.refresh')}>
        <UnstyledButton
          className={classes.image}
          onClick={props.onRefresh}
          aria-label={t('auth.login.captcha.refresh')}
          data-testid="login-captcha-image"
        >
          {props.loading ? (
            <Loader size="sm" />
          ) : props.image ? (
            <img src={props.image} alt={t('auth.login.captcha.alt')} />
          ) : (
            <span className={classes.failed}>
              <IconRefresh size={16} /> {props.failed ? t('auth.login.captcha.failed') : ''}
            </span>
          )}
        </UnstyledButton>
      </Tooltip>
    </Group>
  );
}
