import './styles/app.css';
import { Provider } from 'jotai';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { setUnauthorizedHandler } from './api/http';
import { currentLanguage, languages, t } from './i18n';
import { appStore } from './state/store';
import { showCarriedToast } from './state/toast';

// Signing out stops the socket: imported when needed, the sign-in pages load without the chat's client.
setUnauthorizedHandler(() => {
  void import('./auth/logout').then(({ logout }) => logout({ notice: t('auth.expired'), callServer: false }));
});
showCarriedToast();
document.documentElement.lang = languages.find((l) => l.code === currentLanguage())?.htmlLang ?? 'en';

// The admin page is its own chunk, which the members' pages never load.
const AdminApp = lazy(() => import('./admin/AdminApp').then((m) => ({ default: m.AdminApp })));

/** The admin page lives at /admin/, outside the members' app and its routing guard. */
function isAdminPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider store={appStore}>
        {isAdminPath(window.location.pathname) ? (
          <Suspense fallback={null}>
            <AdminApp />
          </Suspense>
        ) : (
          <App />
        )}
      </Provider>
    </StrictMode>,
  );
}
