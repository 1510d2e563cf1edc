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

/**
 * Fetches the list afresh; with a position the server answers once it has projected that write.
 * Asks made while a fetch is on its way are answered by one more fetch, past the newest position.
 */
export function refetchSessions(position?: number): void {
  refetchPast = Math.max(refetchPast ?? 0, position ?? 0);
  if (!refetching) void refetchWhileAsked();
}

/** How often in a row refetchSessions fetches a list that swr drops before it gives up. */
export const REFETCH_TRIES = 5;

let refetching = false;
/** The position the next fetch of the list reads past (0: any); null when none is asked for. */
let refetchPast: number | null = null;

// One fetch of the list at a time: a burst of group messages, each asking for the list, costs a
// few fetches instead of one each, which would hold every connection the page has. And swr keeps
// a fetched list only when no other change of the list began while it was on its way: an update
// applied meanwhile (a flush of pushes) makes swr drop it, though it may be the only news of a
// chat (a group just joined). Such a list is fetched again.
async function refetchWhileAsked(): Promise<void> {
  refetching = true;
  try {
    for (let dropped = 0; refetchPast !== null && dropped < REFETCH_TRIES; ) {
      const position = refetchPast;
      refetchPast = null;
      const key = position ? withAfter(keys.sessions, position) : keys.sessions;
      const fetched = await mutate<Session[]>(keys.sessions, getFetcher<Session[]>(key), { revalidate: false });
      let kept = false;
      await mutate<Session[]>(
        keys.sessions,
        (current) => {
          kept = current === fetched;
          return current;
        },
        { revalidate: false },
      );
      if (kept) {
        dropped = 0;
      } else {
        dropped++;
        refetchPast = Math.max(refetchPast ?? 0, position);
      }
    }
  } catch {
    // A failed fetch leaves the list as it was; the next ask fetches again.
  } finally {
    refetching = false;
  }
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
