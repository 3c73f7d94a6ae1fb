import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The lock password being typed, to lock the screen or to unlock it (spec §5: required). */
export function useLockPassword() {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    password,
    setError,
    /** The input's value and message; typing clears the message. */
    input: {
      value: password,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        setPassword(event.currentTarget.value);
        setError(null);
      },
      error,
    },
    /** Whether one was typed; if not, the input says it is required. */
    given: () => {
      if (password === '') setError(t('layout.lock.passwordRequired'));
      return password !== '';
    },
    clear: () => {
      setPassword('');
      setError(null);
    },
  };
}
