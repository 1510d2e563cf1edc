// Catching up after a reconnect (docs/api-notices.md, realtime list): the messages of every chat
// after the last position this client had, page by page, then an acknowledgement of where it got.
import { request } from '../api/http';
import type { Message } from '../api/types';

export interface RealtimePage {
  records: Message[];
  since: number;
  position: number;
  hasMore: boolean;
}

export type FetchRealtime = (since: number | null) => Promise<RealtimePage>;

export const MAX_CATCH_UP_PAGES = 20;

export function fetchRealtime(since: number | null): Promise<RealtimePage> {
  const query = since === null ? '' : `?since=${since}`;
  return request<RealtimePage>('GET', `/v1/message/messagePush/realtime/list${query}`);
}

export function ackDelivered(position: number): Promise<{ delivered: number; position: number }> {
  return request('POST', '/v1/message/messagePush/realtime/messageAck', { body: { position } });
}

/**
 * Hands every message missed since `since` (null: since this device's acknowledgement) to
 * `handle`, oldest first, and returns the position the client now stands at. It stops after
 * MAX_CATCH_UP_PAGES pages: the open chat and the session list reload on their own then.
 */
export async function catchUp(since: number | null, fetch: FetchRealtime, handle: (m: Message) => void): Promise<number> {
  let from = since;
  let position = since ?? 0;
  for (let page = 0; page < MAX_CATCH_UP_PAGES; page++) {
    const got = await fetch(from);
    for (const m of got.records) handle(m);
    position = Math.max(position, got.position);
    if (!got.hasMore || got.position === from) break;
    from = got.position;
  }
  return position;
}

/** The highest log position a pushed frame carries, or `held`. */
export function positionOf(data: unknown, held: number): number {
  const p = (data as { position?: unknown } | null | undefined)?.position;
  return typeof p === 'number' && p > held ? p : held;
}
