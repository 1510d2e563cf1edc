import { useAtomValue, useSetAtom } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { authAtom } from '../auth/authState';
import { activeCallAtom } from '../calls/state';
import { ConnectionBanner } from '../components/ConnectionBanner';
import { isMobileAtom, MOBILE_BREAKPOINT_PX, paneAtom } from '../state/ui';
import { startSocket, stopSocket } from '../ws/socket';
import { useApplyPreferences } from '../settings/usePreferences';
import { RightPane } from './RightPane';
import { Sidebar } from './Sidebar';

function useMobileLayout(): boolean {
  const setMobile = useSetAtom(isMobileAtom);
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`);
    const update = () => setMobile(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [setMobile]);
  return useAtomValue(isMobileAtom);
}

// The call's screens are loaded when a call rings in or out.
const CallOverlay = lazy(() => import('../calls/CallOverlay').then((m) => ({ default: m.CallOverlay })));

/** The chat home: recent chats or contacts on the left, the open pane on the right. */
export function Home() {
  const auth = useAtomValue(authAtom);
  const pane = useAtomValue(paneAtom);
  const call = useAtomValue(activeCallAtom);
  const isMobile = useMobileLayout();
  useApplyPreferences();

  useEffect(() => {
    if (!auth) return undefined;
    startSocket(auth);
    return () => stopSocket();
  }, [auth]);

  if (!auth) return null;
  const viewPane = isMobile && pane.kind !== 'none';
  const layout = isMobile ? (viewPane ? 'mobile-pane' : 'mobile-list') : 'wide';
  return (
    <div className={`home home-${layout}`} data-layout={layout}>
      <ConnectionBanner />
      <div className="home-panels">
        {layout !== 'mobile-pane' ? <Sidebar me={auth.user} /> : null}
        {layout !== 'mobile-list' ? <RightPane me={auth.user} /> : null}
      </div>
      {call ? (
        <Suspense fallback={null}>
          <CallOverlay call={call} />
        </Suspense>
      ) : null}
    </div>
  );
}
