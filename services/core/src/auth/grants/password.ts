import { randomBytes } from 'node:crypto';
import { readInTenant } from '../../db';
import type { AuthContext } from '../context';
import { AuthError, type AuthErrorCode } from '../errors';
import { hashPassword, verifyPassword } from '../password';
import { checkClientTenant, requestedTenant, required, type TokenRequest } from '../request';
import { recordRefusal } from '../security-log';
import { type SignedIn, startSession } from '../sessions';
import { type SubjectRow, subjectQuery, tenantProblem, userProblem } from '../subject';

/** What an unknown account's password is verified against (a hash of random bytes; one per process). */
let dummyHash: Promise<string> | undefined;

function dummy() {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** The password and captcha grants: an account and its password, with a captcha when asked for. */
export async function passwordGrant(
  auth: AuthContext,
  req: TokenRequest,
  grantType: 'password' | 'captcha',
): Promise<SignedIn> {
  const tenantId = requestedTenant(auth.config, req.params, req.tenantHeader);
  const account = required(req.params, 'username', 64);
  const password = required(req.params, 'password', 512);
  const base = { tenantId, account, clientId: req.client.clientId, grantType, ip: req.ip, userAgent: req.userAgent };
  checkClientTenant(auth.config, req.client, tenantId);
  const address = req.addressKey ?? req.ip;

  // The counts decide, before the password is looked at, whether this attempt needs a
  // captcha (never a lock). The captcha grant and CAPTCHA_ENABLED always need one. The
  // account is read meanwhile (one round trip each, side by side).
  const [state, [subject]] = await Promise.all([
    auth.throttle.check(tenantId, account, address),
    // Prepared: PostgreSQL plans this join once per connection instead of at every sign-in.
    readInTenant<SubjectRow>(auth.database, { tenantId }, subjectQuery(auth.database.db, tenantId, { account }), {
      prepared: true,
    }),
  ]);
  const demanded = grantType === 'captcha' || auth.config.CAPTCHA_ENABLED || state.captcha !== null;
  if (demanded) {
    const sent = Boolean(req.captchaKey || req.captchaCode);
    if (!(sent && (await auth.captcha.check(req.captchaKey, req.captchaCode)))) {
      // An address over its limit: 429 with Retry-After. A captcha the counts ask for and
      // none sent: captcha_required (the web app then shows one). Otherwise, as BladeX:
      // captcha_invalid.
      const refusal: AuthErrorCode =
        state.retryAfterSec !== null ? 'ip_locked' : !sent && state.captcha ? 'captcha_required' : 'captcha_invalid';
      // It counts as a failure; the password stays unchecked, so guesses without
      // solved captchas learn nothing.
      const { reached } = await auth.throttle.fail(tenantId, account, address);
      await recordRefusal(auth, tenantId, {
        ...base,
        event: reached ? 'captcha_demanded' : 'sign_in_failed',
        result: 'failure',
        detail: reached ? `${refusal}/${reached}` : refusal,
      });
      if (refusal !== 'ip_locked') throw new AuthError(refusal);
      const after = state.retryAfterSec as number;
      throw new AuthError('ip_locked', { minutes: Math.ceil(after / 60) }, after);
    }
  }

  const tenantIssue = tenantProblem(subject);
  if (tenantIssue) {
    if (tenantIssue === 'tenant_not_found') await auth.throttle.failAddress(address);
    await recordRefusal(auth, tenantId, { ...base, event: 'sign_in_failed', result: 'failure', detail: tenantIssue });
    throw new AuthError(tenantIssue);
  }
  const s = subject as SubjectRow;
  // Unknown accounts cost one verify too, so timing tells nothing about which exist.
  const ok = await verifyPassword(s.password_hash ?? (await dummy()), password);
  if (!ok || !s.user_id) {
    const { reached } = await auth.throttle.fail(tenantId, account, address);
    await recordRefusal(auth, tenantId, {
      ...base,
      userId: s.user_id,
      // The failure after which this account (from here, or from everywhere) or this
      // address needs a captcha is recorded as such, once per window.
      event: reached ? 'captcha_demanded' : 'sign_in_failed',
      result: 'failure',
      detail: reached ? `bad_credentials/${reached}` : 'bad_credentials',
    });
    throw new AuthError('bad_credentials');
  }
  const userIssue = userProblem(s);
  if (userIssue) {
    await recordRefusal(auth, tenantId, {
      ...base,
      userId: s.user_id,
      event: 'sign_in_failed',
      result: 'failure',
      detail: userIssue,
    });
    throw new AuthError(userIssue);
  }
  const [signedIn] = await Promise.all([
    startSession(auth, s, req, grantType, null),
    // Best effort: the session is committed, a failed counter reset must not fail the sign-in.
    auth.throttle.succeed(tenantId, account, address, state).catch(() => undefined),
  ]);
  return signedIn;
}
