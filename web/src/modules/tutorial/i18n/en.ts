import type { TutorialMessages } from './zh-CN';

export const en: TutorialMessages = {
  badge: 'Getting started',
  title: 'A tour of the Sprout Teaching Platform',
  intro:
    'From signing in to having plans approved: the main features in a few minutes. Each picture marks where on the screen a step happens.',
  shortcut: 'Shortcut:',
  sections: {
    signin: {
      title: 'Signing in',
      text: 'Use the tenant number, account and password your school gave you. Where your school has set it up, you can also sign in with a third-party account or by scanning a QR code with your workplace app.',
      points: [
        'The tenant number identifies your kindergarten; on your school’s own web address it is filled in for you.',
        'The first third-party sign-in asks you to register; an administrator approves it before you can use the platform.',
        'Too many wrong passwords lock the account for a while. Wait, or ask your administrator.',
      ],
    },
    navigate: {
      title: 'Finding your way',
      text: 'The menu is on the left; the top bar switches between menu groups such as Teaching, Affairs and System. The button at the top left folds the sidebar away and back.',
      points: [
        'You only see the screens your roles allow.',
        'On small screens the sidebar folds away after you choose a menu, to leave room for the page.',
        'On the right of the top bar: search, tutorial, error log, lock, theme, colour, full screen, language and your own menu.',
      ],
    },
    tabs: {
      title: 'Tabs',
      text: 'Every page you open gets a tab, so you can move between several pages quickly.',
      points: [
        'Right-click a tab to clear the cache, close the others or close them all.',
        'Lesson plan details, new lesson plans and observation details keep what you typed when you switch tabs.',
        'The home tab always stays open.',
      ],
    },
    search: {
      title: 'Finding a screen fast',
      text: 'Not sure where a screen lives? Type the start of its name in the search box, or open the menu search and jump straight there.',
      points: [
        'Names match from their first letters, whatever the case: "us" finds "Users".',
        'Press Esc to close the menu search.',
      ],
    },
    appearance: {
      title: 'Appearance',
      text: 'Choose one of eleven themes — Default, White, Dark, Starry, Ocean and more — pick your own colour, and switch between Chinese and English.',
      points: [
        'Your theme, colour and language are remembered for next time.',
        'The Dark theme is easy on the eyes in the evening or in a dim room.',
      ],
    },
    safety: {
      title: 'Keeping your account safe',
      text: 'Stepping away from your desk? Lock the screen; type the lock password when you are back.',
      points: [
        'Your sign-in renews itself in the background — once, however many tabs are open.',
        'After two hours without a click, you are asked to save your work and sign in again.',
        'Change your password under My profile; other devices are then signed out.',
      ],
    },
  },
  flow: {
    title: 'How plans get approved',
    text: 'Lesson plans, observations and other teaching records go through two stages: to review, then approved.',
    steps: {
      draft: {
        title: 'Write',
        text: 'Create a weekly plan or a half-day or full-day activity under My lesson plans; save drafts any time.',
      },
      submit: { title: 'Submit', text: 'When it is ready, submit it: it joins the review list for your reviewer.' },
      review: {
        title: 'Review',
        text: 'The principal or team leader reviews it, edits and approves it, or sends it back.',
      },
      approved: {
        title: 'Approved',
        text: 'Approved records move to the approved list, where they can be read and exported.',
      },
      excellent: {
        title: 'Excellent',
        text: 'The best plans and observations are marked excellent for every teacher to learn from and save.',
      },
    },
  },
  faq: {
    title: 'Questions',
    items: {
      password: {
        q: 'I forgot my password.',
        a: 'Ask your school administrator to reset it under Users, sign in with the new one and change it straight away.',
      },
      tenant: {
        q: 'What is the tenant number?',
        a: 'It is your kindergarten’s number on the platform; your administrator has it. On your school’s own web address you do not need it.',
      },
      menu: {
        q: 'Why can I not see a menu?',
        a: 'Menus come with roles. If you need a screen for your work, ask your administrator for the right role.',
      },
      loggedOut: {
        q: 'Why am I suddenly back at the sign-in page?',
        a: 'Your session ended: it expired, the password was changed elsewhere, or an administrator disabled the account.',
      },
      errors: {
        q: 'What is the number on the bug icon?',
        a: 'It counts errors your browser recorded. Open the error log to see them and upload them to help us fix the cause.',
      },
    },
  },
};
