import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { authAtom } from './auth/authState';
import { Toaster } from './components/Toaster';
import { Agreement } from './pages/Agreement';
import { Landing } from './pages/Landing';
import { Login } from './pages/Login';
import { Register } from './pages/Register';
import { ResetPassword } from './pages/ResetPassword';
import { guard } from './routing/guard';
import { useHashRoute } from './routing/useRoute';

// The home screen is its own chunk, so the sign-in pages load without the chat.
const AppRoute = lazy(() => import('./home/PaneRoutes').then((m) => ({ default: m.AppRoute })));

export function App() {
  const route = useHashRoute();
  const auth = useAtomValue(authAtom);
  const decision = guard({ route, pathname: window.location.pathname, memberId: auth?.user.id ?? null });
  const redirectTo = decision.kind === 'redirect' ? decision.hash : null;

  useEffect(() => {
    if (redirectTo) window.location.replace(redirectTo);
  }, [redirectTo]);

  let page: React.ReactNode = null;
  if (!redirectTo) {
    switch (route.name) {
      case 'landing':
        page = <Landing />;
        break;
      case 'login':
        page = <Login prefillAccount={route.query.get('account') ?? undefined} />;
        break;
      case 'register':
        page = (
          <Register
            inviteCode={route.query.get('inviteCode') ?? undefined}
            tenantCode={route.query.get('tenantCode') ?? undefined}
          />
        );
        break;
      case 'home':
      case 'setting':
      case 'favorite':
      case 'historyPage':
        page = (
          <Suspense fallback={null}>
            <AppRoute route={route} />
          </Suspense>
        );
        break;
      case 'resetPassword':
        page = <ResetPassword />;
        break;
      case 'userpolicy':
      case 'hiddenagreement':
        page = <Agreement kind={route.name} />;
        break;
      case 'unknown':
        break;
    }
  }
  return (
    <>
      {page}
      <Toaster />
    </>
  );
}
