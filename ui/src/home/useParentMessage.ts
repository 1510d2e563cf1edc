import useSWR from 'swr';
import { getMessagesByIds } from '../api/endpoints';
import type { Message } from '../api/types';

/** getMessageByIds takes at most 100 ids a call. */
const BATCH_MAX = 100;

interface Waiter {
  resolve: (message: Message | null) => void;
  reject: (error: unknown) => void;
}
let waiting = new Map<string, Waiter[]>();
let timer: ReturnType<typeof setTimeout> | null = null;

/** The quotes rendered together ask for their messages in one call. */
function flush(): void {
  timer = null;
  const batch = waiting;
  waiting = new Map();
  const ids = [...batch.keys()];
  for (let at = 0; at < ids.length; at += BATCH_MAX) {
    const chunk = ids.slice(at, at + BATCH_MAX);
    const waiters = (id: string) => batch.get(id) ?? [];
    getMessagesByIds(chunk).then(
      (found) => {
        for (const id of chunk) {
          const message = found.find((item) => item.id === id) ?? null;
          for (const waiter of waiters(id)) waiter.resolve(message);
        }
      },
      (error: unknown) => {
        for (const id of chunk) for (const waiter of waiters(id)) waiter.reject(error);
      },
    );
  }
}

function loadMessage(id: string): Promise<Message | null> {
  return new Promise((resolve, reject) => {
    waiting.set(id, [...(waiting.get(id) ?? []), { resolve, reject }]);
    timer ??= setTimeout(flush, 0);
  });
}

/** A replied-to message that is not in the loaded timeline; null once the server says it is gone. */
export function useParentMessage(id: string | null) {
  return useSWR<Message | null>(id ? ['getMessageByIds', id] : null, () => loadMessage(id as string), {
    revalidateOnFocus: false,
    dedupingInterval: 10_000,
  });
}
