import './styles/app.css';
import { Provider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SWRConfig } from 'swr';
import { AdminApp } from './admin/AdminApp';
import { App } from './App';
import { getFetcher, setUnauthorizedHandler } from './api/http';
import { logout } from './auth/logout';
import { currentLanguage, languages, t } from './i18n';
import { appStore } from './state/store';
import { showCarriedToast } from './state/toast';

setUnauthorizedHandler(() => logout({ notice: t('auth.expired'), callServer: false }));
showCarriedToast();
document.documentElement.lang = languages.find((l) => l.code === currentLanguage())?.htmlLang ?? 'en';

/** The admin page lives at /admin/, outside the members' app and its routing guard. */
function isAdminPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider store={appStore}>
        <SWRConfig value={{ fetcher: getFetcher, shouldRetryOnError: false, revalidateOnFocus: true }}>
          {isAdminPath(window.location.pathname) ? <AdminApp /> : <App />}
        </SWRConfig>
      </Provider>
    </StrictMode>,
  );
}
