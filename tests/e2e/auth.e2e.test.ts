/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '../../web/src/lib/md5';
import { ADMIN, type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';

/** Sign-in, registration, the route guard, the lock screen, a 401 and the avatar checks. */
describe('web shell: sign-in and session', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('signs in with md5 password, and shows the server’s error_description on failure', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const tokenCalls: Array<{ url: string; body: string }> = [];
    page.on('request', (r) => {
      if (r.url().includes('/oauth/token')) tokenCalls.push({ url: r.url(), body: r.postData() ?? '' });
    });

    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    await shot(page, 'login');

    await page.getByTestId('login-account').fill('admin');
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('用户名或密码错误');
    expect(page.url()).toMatch(/\/login$/);
    // The password never travels as typed.
    // In the form body: a URL would keep the md5 (a password equivalent) in proxies' logs.
    expect(tokenCalls.at(-1)?.body).toContain(`password=${md5('wrong-password')}`);
    expect(tokenCalls.at(-1)?.body).not.toContain('wrong-password');
    expect(tokenCalls.at(-1)?.url).not.toContain('password');

    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/wel/index');
    await expect.poll(() => page.getByTestId('welcome-greeting').textContent()).toContain('管理员');
    await expect.poll(() => page.getByTestId('welcome-tenant').textContent()).toContain('000000');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a teacher of the demo kindergarten only their menus and buttons', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, { tenant: '100001', account: 'teacher1', password: 'sprout123' });
    await waitForMenu(page);
    await expect.poll(() => page.getByTestId('welcome-greeting').textContent()).toContain('王老师');
    await page.getByTestId('menu-lesson').waitFor();
    expect(await page.getByTestId('menu-system').count()).toBe(0);
    await shot(page, 'home-teacher');
    // <Can> hides what the server's rules do not allow.
    await page.goto('/test/index');
    await page.getByTestId('can-week_add').waitFor();
    expect(await page.getByTestId('can-user_add').count()).toBe(0);
    // A screen outside the teacher's menu does not open.
    await page.goto('/system/user/index');
    await page.waitForURL('**/404');
    await context.close();
  });

  it('asks for the captcha when it is on, and shows the server’s refusal of a wrong code', async () => {
    const context = await e2e.context({ config: { captchaMode: true } });
    const page = await context.newPage();
    await page.goto('/login');
    const image = page.locator('[data-testid="login-captcha-image"] img');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await page.getByTestId('login-account').fill('admin');
    await page.getByTestId('login-password').fill('admin');
    await page.getByTestId('login-submit').click();
    await page.getByText('请输入验证码').waitFor();
    const first = await image.getAttribute('src');
    await page.getByTestId('login-captcha').fill('zzzz');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('验证码不正确');
    // A captcha is single-use: a new one replaced it.
    await expect.poll(() => image.getAttribute('src')).not.toBe(first);
    await context.close();
  });

  it('shows the captcha when the server asks for one after failed sign-ins, with the captcha off', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const tokenCalls: Array<{ body: string; headers: Record<string, string> }> = [];
    page.on('request', (r) => {
      if (r.url().includes('/oauth/token')) tokenCalls.push({ body: r.postData() ?? '', headers: r.headers() });
    });
    await page.goto('/login');
    const image = page.locator('[data-testid="login-captcha-image"] img');
    await page.getByTestId('login-account').fill('nobody-e2e');
    await page.getByTestId('login-password').fill('wrong-password');
    // Three failures of this account from this address: plain refusals, no captcha yet.
    for (let i = 1; i <= 3; i++) {
      await page.getByTestId('login-submit').click();
      await expect.poll(() => tokenCalls.length).toBe(i);
      await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('用户名或密码错误');
      await page.getByTestId('login-error').locator('button').click();
    }
    expect(await page.getByTestId('login-captcha').count()).toBe(0);
    // The fourth: the server asks for a captcha instead of checking the password, and the form shows one.
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('请输入验证码');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await shot(page, 'login-captcha-demanded');
    // From now on the form sends the captcha grant with the code it was given.
    await page.getByTestId('lang-en').click();
    await page.getByTestId('login-captcha').fill('zzzz');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => tokenCalls.length).toBe(5);
    const last = tokenCalls.at(-1) as { body: string; headers: Record<string, string> };
    expect(last.body).toContain('grant_type=captcha');
    expect(last.headers['captcha-code']).toBe('zzzz');
    expect(last.headers['captcha-key']).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('Incorrect verification code');
    await shot(page, 'login-captcha-demanded-en');
    await context.close();
  });

  it('guards routes: unauthenticated → /login, /login while signed in → /, locked → /lock, unknown → /404', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await page.goto('/wel/dashboard');
    await page.waitForURL('**/login');
    await page.goto('/no/such/page');
    await page.waitForURL('**/login');

    await signIn(page);
    await page.goto('/login');
    await page.waitForURL('**/wel/index');
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    await page.getByTestId('error-404').waitFor();
    await shot(page, 'not-found');

    // Lock: an empty password is refused with the spec's message.
    await page.goto('/wel/index');
    await page.getByTestId('lock-open').click();
    await page.getByTestId('lock-submit').click();
    await page.getByText('锁屏密码不能为空').waitFor();
    await page.getByTestId('lock-password').fill('tea-break');
    await page.getByTestId('lock-submit').click();
    await page.waitForURL('**/lock');
    await page.getByTestId('lock-screen').waitFor();
    await shot(page, 'lock-screen');

    for (const path of ['/wel/index', '/login', '/info/index', '/no/such/page']) {
      await page.goto(path);
      await page.waitForURL('**/lock');
    }
    await page.getByTestId('unlock-password').fill('wrong');
    await page.getByTestId('unlock-submit').click();
    await page.getByText('锁屏密码不正确').waitFor();
    await page.getByTestId('unlock-password').fill('tea-break');
    await page.getByTestId('unlock-submit').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/lock'));
    await page.goto('/wel/dashboard');
    await page.getByTestId('dashboard-page').waitFor();

    // The lock is cleared by logging out (and a new session starts unlocked).
    await page.getByTestId('lock-open').click();
    await page.getByTestId('lock-password').fill('again');
    await page.getByTestId('lock-submit').click();
    await page.waitForURL('**/lock');
    await page.getByTestId('lock-logout').click();
    await page.waitForURL('**/login');
    await signIn(page);
    await page.goto('/wel/dashboard');
    await page.getByTestId('dashboard-page').waitFor();
    await context.close();
  });

  it('sends the user to /login when the server answers 401 (session revoked elsewhere)', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-token') ?? '{}').content as string);
    expect(token).toBeTruthy();
    const revoke = await fetch(`${e2e.server.url}/api/blade-auth/oauth/logout`, {
      headers: {
        authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
        'blade-auth': `bearer ${token}`,
      },
    });
    expect(revoke.status).toBe(200);
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('sprout-token'))).toBeNull();
    await context.close();
  });

  it('registration: checks in the spec’s order without calling, then submits, alerts, logs out', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const registrations: URL[] = [];
    let loggedOut = false;
    await page.route('**/api/blade-auth/oauth/token**', async (route) => {
      const form = new URLSearchParams(route.request().postData() ?? '');
      if (form.get('grant_type') !== 'social') return route.continue();
      expect(form.get('source')).toBe('github');
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          access_token: 'guest-token',
          token_type: 'bearer',
          expires_in: 1800,
          tenant_id: '000000',
          user_id: '-1',
          oauth_id: '1900000000000000001',
          account: 'octocat',
          user_name: 'octocat',
          avatar: '',
        }),
      });
    });
    await page.route('**/api/blade-user/register-guest**', async (route) => {
      registrations.push(new URL(route.request().url()));
      expect(route.request().headers()['blade-auth']).toBe('bearer guest-token');
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          code: 200,
          success: true,
          data: { userId: '1' },
          msg: '注册申请已提交,请耐心等待管理员通过!',
        }),
      });
    });
    await page.route('**/api/blade-auth/oauth/logout', async (route) => {
      loggedOut = route.request().headers()['blade-auth'] === 'bearer guest-token';
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 200, success: true, data: null, msg: '' }),
      });
    });

    await page.goto('/oauth/redirect/github?code=the-code&state=the-state');
    await page.getByTestId('register-account').waitFor();
    await page.getByText('账号注册').waitFor();
    expect(await page.getByTestId('register-account').inputValue()).toBe('octocat');
    expect(await page.getByTestId('register-name').inputValue()).toBe('octocat');
    await shot(page, 'registration');

    const submit = () => page.getByTestId('register-submit').click();
    const warning = (text: string) => page.getByText(text, { exact: true }).last().waitFor();

    await page.getByTestId('register-tenant').fill('');
    await page.getByTestId('register-account').fill('');
    await submit();
    await warning('请先输入租户编号');
    await page.getByTestId('register-tenant').fill('000000');
    await submit();
    await warning('请先输入账号名称');
    await page.getByTestId('register-account').fill('octocat');
    await page.getByTestId('register-password2').fill('secret-1');
    await submit();
    await warning('请先输入密码');
    await page.getByTestId('register-password').fill('secret-2');
    await submit();
    await warning('两次密码输入不一致');
    expect(registrations).toHaveLength(0);

    await page.getByTestId('register-password').fill('secret-1');
    await submit();
    await page.getByTestId('register-alert-ok').waitFor();
    await page.getByText('注册申请已提交,请耐心等待管理员通过!').waitFor();
    expect(registrations).toHaveLength(1);
    const sent = registrations[0] as URL;
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      tenantId: '000000',
      name: 'octocat',
      account: 'octocat',
      password: md5('secret-1'),
      oauthId: '1900000000000000001',
    });
    await page.getByTestId('register-alert-ok').click();
    await page.waitForURL('**/login');
    expect(loggedOut).toBe(true);
    await context.close();
  });

  it('refuses an avatar that is too big or not jpg/png, without uploading it', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/oss/endpoint/put-file')) uploads.push(r.url());
    });
    await signIn(page);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-info-link').click();
    await page.waitForURL('**/info/index');
    await waitForMenu(page);
    const input = page.locator('[data-testid="profile-form"] input[type="file"]');
    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(600 * 1024, 1) });
    await expect.poll(() => page.getByTestId('avatar-error').textContent()).toBe('上传头像图片大小不能超过 500KB!');
    await input.setInputFiles({ name: 'cat.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect.poll(() => page.getByTestId('avatar-error').textContent()).toBe('上传头像图片只能是 JPG/PNG 格式!');
    expect(uploads).toEqual([]);

    // The phone helper (spec §5) with a real mainland pattern.
    const phone = page.getByTestId('profile-phone');
    await phone.fill('');
    await phone.blur();
    await page.getByText('手机号码不能为空').waitFor();
    await phone.fill('1380013800');
    await phone.blur();
    await page.getByText('手机号码长度不为11位').waitFor();
    await phone.fill('12800138000');
    await phone.blur();
    await page.getByText('手机号码格式不正确').waitFor();
    await shot(page, 'personal-info');
    await context.close();
  });
});
