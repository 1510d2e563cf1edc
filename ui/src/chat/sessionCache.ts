// Applies session-list updates to the swr cache, batched: pushes that arrive together cause one
// re-render (spec: recent-list update debounced by 100 ms). When an update adds a chat without
// its name (a pushed message or session item), the list is fetched afresh, past the write that
// caused it when its position is known, to get the name and avatar.
import { mutate } from 'swr';
import { getFetcher } from '../api/http';
import { keys, withAfter } from '../api/keys';
import type { Session } from '../api/types';

export const SESSION_DEBOUNCE_MS = 100;

type Update = (list: Session[]) => Session[];

let pending: Update[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let newestPosition = 0;

/** `position`: the global position of the write behind the update, so a refetch reads past it. */
export function queueSessionUpdate(update: Update, position?: number): void {
  pending.push(update);
  if (position && position > newestPosition) newestPosition = position;
  timer ??= setTimeout(flushSessionUpdates, SESSION_DEBOUNCE_MS);
}

/** Fetches the list afresh; with a position the server answers once it has projected that write. */
export function refetchSessions(position?: number): void {
  const key = position ? withAfter(keys.sessions, position) : keys.sessions;
  mutate<Session[]>(keys.sessions, getFetcher<Session[]>(key), { revalidate: false }).catch(() => undefined);
}

export function flushSessionUpdates(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const updates = pending;
  const position = newestPosition;
  pending = [];
  newestPosition = 0;
  if (updates.length === 0) return;
  let addedNameless = false;
  void mutate<Session[]>(
    keys.sessions,
    (current) => {
      if (!current) return current;
      const next = updates.reduce((list, update) => update(list), current);
      addedNameless = next.some((session) => !session.name && !current.some((known) => known.id === session.id));
      return next;
    },
    { revalidate: false },
  ).then(() => {
    if (addedNameless) refetchSessions(position || undefined);
  });
}

export function discardSessionUpdates(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  pending = [];
  newestPosition = 0;
}
