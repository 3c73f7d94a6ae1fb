import { type FormEvent, useCallback, useRef, useState } from 'react';
import { TransportError } from '../../../lib/http';
import { loginByUsername, type TokenResponse } from '../api/token';
import {
  LOGIN_FIELDS,
  type LoginErrors,
  type LoginField,
  type LoginFieldSet,
  type LoginFormValues,
  validateLogin,
  validateLoginField,
} from '../validation';

/** Either the server's own text (shown as is) or one of our message keys. */
export type LoginFailure =
  | { kind: 'server'; text: string }
  | { kind: 'unknown' }
  | { kind: 'network' }
  | { kind: 'timeout' };

interface Options {
  initialValues: LoginFormValues;
  shown: LoginFieldSet;
  /** The tenant when the form does not ask for it (inferred from the domain, or tenant mode off). */
  fixedTenantId?: string | null;
  /** The captcha key, when the captcha is on. */
  captchaKey?: string | null;
  /**
   * Called after every failed attempt (a captcha is single-use), with the server's
   * `errorCode` when it gave one (`captcha_required`: the server now wants a captcha).
   */
  onFailure?: (errorCode: string | null) => void;
  onSuccess: (token: TokenResponse) => void;
}

/** State and handlers of the login form: validation on blur and submit, then the token call. */
export function useLoginForm({ initialValues, shown, fixedTenantId, captchaKey, onFailure, onSuccess }: Options) {
  const [values, setValues] = useState<LoginFormValues>(initialValues);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef<Partial<Record<LoginField, HTMLInputElement | null>>>({});

  const setValue = useCallback((field: LoginField, value: string) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    // Typing fixes the field: drop its message until the next blur or submit.
    setErrors((prev) => (prev[field] ? { ...prev, [field]: undefined } : prev));
  }, []);

  const validateOnBlur = useCallback(
    (field: LoginField) => {
      setErrors((prev) => ({ ...prev, [field]: validateLoginField(field, values, shown) }));
    },
    [values, shown],
  );

  const registerInput = useCallback(
    (field: LoginField) => (element: HTMLInputElement | null) => {
      inputs.current[field] = element;
    },
    [],
  );

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (submitting) return;
      const found = validateLogin(values, shown);
      setErrors(found);
      const firstInvalid = LOGIN_FIELDS.find((field) => found[field]);
      if (firstInvalid) {
        inputs.current[firstInvalid]?.focus();
        return;
      }
      setFailure(null);
      setSubmitting(true);
      try {
        const result = await loginByUsername({
          tenantId: (fixedTenantId ?? values.tenantId).trim(),
          username: values.username.trim(),
          password: values.password,
          captcha: shown.captcha && captchaKey ? { key: captchaKey, code: (values.captcha ?? '').trim() } : undefined,
        });
        if (result.ok) {
          onSuccess(result.token);
          return;
        }
        setFailure(result.message ? { kind: 'server', text: result.message } : { kind: 'unknown' });
        onFailure?.(result.errorCode);
      } catch (error) {
        setFailure(
          error instanceof TransportError && error.kind !== 'status' ? { kind: error.kind } : { kind: 'unknown' },
        );
        onFailure?.(null);
      } finally {
        setSubmitting(false);
      }
    },
    [submitting, values, shown, fixedTenantId, captchaKey, onSuccess, onFailure],
  );

  return {
    values,
    errors,
    failure,
    submitting,
    setValue,
    validateOnBlur,
    registerInput,
    submit,
    dismissFailure: () => setFailure(null),
  };
}
