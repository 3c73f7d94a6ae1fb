import type { Messages } from './zh-CN';

export const en: Messages = {
  app: {
    title: 'Sprout Teaching Platform',
    shortName: 'Sprout',
    copyright: '© Sprout Teaching Platform',
  },
  language: {
    label: 'Display language',
    zh: '中文',
    en: 'English',
  },
  common: {
    loading: 'Loading…',
    backHome: 'Back to home',
    reload: 'Reload',
    close: 'Close',
  },
  errors: {
    unknown: 'Unknown error',
    network: 'Cannot reach the server. Please check your connection and try again.',
    timeout: 'The server took too long to answer. Please try again later.',
    pageCrashedTitle: 'Something went wrong on this page',
    pageCrashedText: 'Please reload the page. If the problem persists, contact your school administrator.',
  },
  auth: {
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
      submit: 'Sign in',
      failedTitle: 'Sign-in failed',
      succeeded: 'Signed in',
      help: 'Forgot your password or have no account? Contact your school administrator.',
    },
  },
  notFound: {
    title: 'Oops, this page wandered off',
    text: 'The page you are looking for does not exist or has moved somewhere else.',
  },
};
