import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './styles/global.css';
import './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { bootstrap } from './app/bootstrap';
import { loadRuntimeConfig } from './config/runtime';
import { appendErrorLog } from './lib/errorLog';
import { currentToken } from './modules/auth/session';

bootstrap();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The server's settings (captcha, tenant mode, token time, social sources): the login page
// waits for them; a signed-in page does not (its token time is read at each check).
const settings = loadRuntimeConfig();
if (!currentToken()) await settings;

// Render errors go to the local error log (spec §8), with the component stack as info.
createRoot(container, {
  onUncaughtError: (error, info) => {
    console.error(error);
    appendErrorLog('react', error, info.componentStack ?? '');
  },
  onCaughtError: (error, info) => {
    console.error(error);
    appendErrorLog('react', error, info.componentStack ?? '');
  },
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
