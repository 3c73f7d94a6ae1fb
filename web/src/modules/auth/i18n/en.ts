import type { AuthMessages } from './zh-CN';

export const en: AuthMessages = {
  brand: {
    tagline: 'Organised teaching, growth you can see.',
    features: {
      plans: 'Lesson & activity plans',
      observations: 'Observations & reviews',
      growth: 'Teacher growth',
    },
  },
  login: {
    title: 'Welcome back',
    subtitle: 'Sign in with the account your school gave you',
    subtitleTenant: 'Sign in to {{tenant}}',
    tenant: {
      label: 'Tenant number',
      placeholder: 'Enter the tenant number',
      required: 'Please enter the tenant number',
    },
    account: {
      label: 'Account',
      placeholder: 'Enter your account',
      required: 'Please enter your account',
    },
    password: {
      label: 'Password',
      placeholder: 'Enter your password',
      required: 'Please enter your password',
      show: 'Show password',
      hide: 'Hide password',
    },
    captcha: {
      label: 'Verification code',
      placeholder: 'Enter the code',
      required: 'Please enter the verification code',
      refresh: 'Hard to read? Get another one',
      alt: 'Verification code picture',
      failed: 'Failed to load',
    },
    submit: 'Sign in',
    failedTitle: 'Sign-in failed',
    succeeded: 'Signed in',
    help: 'Forgot your password or have no account? Contact your school administrator.',
  },
  thirdParty: {
    title: 'Other ways to sign in',
    scan: 'Scan with {{name}}',
    with: 'Sign in with {{name}}',
  },
  social: {
    missing: 'The third-party sign-in came back incomplete. Please start again.',
    working: 'Finishing the third-party sign-in…',
    backToLogin: 'Back to sign-in',
  },
  register: {
    title: 'Register an account',
    intro:
      'This third-party account is not linked to a platform account yet. Send a registration request; you can sign in once an administrator approves it.',
    tenant: 'Tenant number',
    name: 'Full name',
    namePlaceholder: 'Enter your name',
    account: 'Account name',
    accountPlaceholder: 'Enter an account name',
    password: 'Password',
    passwordPlaceholder: 'Enter a password',
    password2: 'Confirm password',
    password2Placeholder: 'Enter the password again',
    submit: 'Confirm',
    tenantRequired: 'Please enter the tenant number first',
    accountRequired: 'Please enter the account name first',
    passwordRequired: 'Please enter the password first',
    passwordMismatch: 'The two passwords do not match',
    submitted: 'Your registration has been submitted. Please wait for an administrator to approve it.',
    failed: 'Submission failed',
  },
  sessionExpired: 'Your session has ended. Please sign in again.',
  inactivity: {
    title: 'You have been away for a while',
    text: 'Nothing has been clicked for more than two hours. To keep your account safe, please save what you are editing and sign in again.',
    relogin: 'Sign in again',
  },
};
