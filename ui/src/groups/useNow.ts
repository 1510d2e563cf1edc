import { useEffect, useState } from 'react';

/** The clock at each render; re-renders every second while `ticking` (a mute countdown is on screen). */
export function useNow(ticking: boolean): number {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = setInterval(() => setTicks((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return Date.now();
}
