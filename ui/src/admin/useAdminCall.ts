import { useCallback, useState } from 'react';
import { ApiError } from '../api/http';

/**
 * Runs admin calls for a panel: keeps the last error's text for the panel to show, and signs
 * the page out when the token is refused (401: expired or not good any more).
 */
export function useAdminCall(onExpired: () => void) {
  const [error, setError] = useState('');
  const run = useCallback(
    async <T,>(call: () => Promise<T>): Promise<T | undefined> => {
      try {
        const result = await call();
        setError('');
        return result;
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) onExpired();
        setError(e instanceof Error ? e.message : String(e));
        return undefined;
      }
    },
    [onExpired],
  );
  return { error, run, setError };
}
