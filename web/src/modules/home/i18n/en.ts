import type { HomeMessages } from './zh-CN';

export const en: HomeMessages = {
  greeting: {
    morning: 'Good morning, {{name}}',
    noon: 'Good day, {{name}}',
    afternoon: 'Good afternoon, {{name}}',
    evening: 'Good evening, {{name}}',
  },
  tagline: 'Wishing you a smooth and happy day of teaching!',
  tenant: 'Tenant {{tenant}}',
  shortcuts: {
    title: 'Shortcuts',
    empty: 'Once the menu has loaded, your most useful screens appear here.',
  },
  notices: {
    title: 'Notices',
    empty: 'No notices yet',
  },
  start: {
    title: 'Getting started',
    tutorial: {
      title: 'Read the tutorial',
      text: 'Five minutes on lesson plans, observations and reviews.',
      action: 'Open the tutorial',
    },
    info: {
      title: 'Complete your profile',
      text: 'Upload a picture, add your phone and email.',
      action: 'Edit profile',
    },
    look: {
      title: 'Make it yours',
      text: 'Eleven themes, your own colour, Chinese or English.',
      action: 'Appearance settings',
    },
  },
  dashboard: {
    screens: 'Screens',
    permissions: 'Permissions',
    tabs: 'Open tabs',
    errors: 'Local errors',
    account: {
      title: 'Account',
      account: 'Account',
      tenant: 'Tenant',
      roles: 'Roles',
      signedIn: 'Token issued',
    },
    session: {
      title: 'Session',
      refreshIn: 'Next automatic renewal in',
      seconds: '{{count}} s',
      explain: 'The token is renewed every {{seconds}} seconds; open tabs renew it once between them.',
    },
  },
  testPage: {
    keepAlive: {
      title: 'Kept-alive page',
      text: 'This page is kept alive: change the fields below, switch to another tab and come back — they keep their values until you clear the cache.',
      counter: 'Counter',
      notes: 'Notes',
    },
    permissions: {
      title: 'Button permissions',
      text: 'Green: you may do it; grey: you may not. The screen only hides things — the server checks every action.',
    },
    errors: {
      title: 'Error log',
      text: 'These buttons cause a front-end error on purpose, to check that the error log records it.',
      throw: 'Cause an error',
      reject: 'Cause an unhandled promise rejection',
      sample: 'A sample error from the test page',
      sampleRejection: 'A sample promise rejection from the test page',
    },
  },
};
