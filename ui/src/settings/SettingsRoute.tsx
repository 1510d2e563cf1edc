import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { Home } from '../home/Home';
import { paneAtom } from '../state/ui';

/** Route /setting: the home with the settings in the right panel. */
export function SettingsRoute() {
  const setPane = useSetAtom(paneAtom);
  useEffect(() => setPane({ kind: 'settings' }), [setPane]);
  return <Home />;
}
