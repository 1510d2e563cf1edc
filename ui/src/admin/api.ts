// Calls of the admin page: /v1/admin/... with the page's operator or auditor token.
import { request } from '../api/http';
import type { TopUpItem } from '../topup/logic';
import type { AdminCredential } from './token';

export interface ProjectorStatus {
  name: string;
  checkpoint: number;
  head: number;
  /** The checkpoint is before the head; lagSeconds then says by how much of the log's time. */
  behind: boolean;
  lagSeconds: number;
  lastError?: string;
}

export interface RebuildProgress {
  state: '' | 'idle' | 'running' | 'swapping' | 'done' | 'failed' | 'cancelled';
  projectors?: string[];
  /** Positions are tokens of the log: shown, compared, never subtracted. */
  from: number;
  position: number;
  head: number;
  /** Events folded in this run. */
  done: number;
  /** How far through the log's time the rebuild is, 0 to 1. */
  fraction: number;
  rate: number;
  etaSeconds: number;
  startedAt?: string;
  finishedAt?: string;
  /** How long the swap held the live projections, and so new messages, back. */
  swapHeldMs?: number;
  error?: string;
}

export interface ProjectionsStatus {
  head: number;
  headTime?: string;
  position: number;
  skipped: number;
  leader?: string;
  lastError?: string;
  projectors: ProjectorStatus[];
  rebuild: RebuildProgress;
}

export interface AuditEvent {
  id?: string;
  stream: string;
  revision: number;
  position: number;
  type: string;
  /** metadata time, Unix ms */
  time: number;
  actor: string;
  data: unknown;
}

export interface EventsPage {
  events: AuditEvent[];
  next: number;
}

/** The filter of the events page and the export; empty fields are left out. */
export interface HistoryFilter {
  from: string;
  to: string;
  stream: string;
  chat: string;
  type: string;
  actor: string;
}

export const emptyFilter: HistoryFilter = { from: '', to: '', stream: '', chat: '', type: '', actor: '' };

/** A member as an auditor reads it next to its id. */
export interface AuditPerson {
  id: string;
  account: string;
  phone: string;
  name: string;
}

export interface AuditGroup {
  id: string;
  name: string;
  dissolved: boolean;
}

export interface AuditDirectory {
  members: AuditPerson[];
  groups: AuditGroup[];
}

export interface Replay {
  id: string;
  tenant: string;
  position: number;
  time?: string;
  state: 'running' | 'done' | 'failed';
  /** The tenant's events folded. */
  done: number;
  error?: string;
}

export interface ModelComparison {
  name: string;
  equal: boolean;
  firstDifference?: string;
}

export interface Verification {
  tenant: string;
  position: number;
  models: ModelComparison[];
}

export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function adminApi(credential: AdminCredential, tenant: string) {
  const call = <T>(method: string, path: string, body?: unknown) =>
    request<T>(method, `/v1/admin${path}`, { token: credential.token, body, quiet: true });
  const scoped = (params: Record<string, string | number | undefined> = {}) => query({ tenant, ...params });
  return {
    status: () => call<ProjectionsStatus>('GET', '/projections/status'),
    startRebuild: (name: string) => call<RebuildProgress>('POST', '/projections/rebuild', { name }),
    cancelRebuild: () => call<RebuildProgress>('DELETE', '/projections/rebuild'),
    events: (filter: HistoryFilter, after: number, size: number) =>
      call<EventsPage>('GET', `/audit/events${scoped({ ...filter, after, size })}`),
    exportUrl: (filter: HistoryFilter) => `/v1/admin/audit/export${scoped({ ...filter })}`,
    replays: () => call<Replay[]>('GET', `/audit/replays${scoped()}`),
    startReplay: (at: { position?: number; time?: string }) => call<Replay>('POST', '/audit/replays', { tenant, ...at }),
    replay: (id: string) => call<Replay>('GET', `/audit/replays/${encodeURIComponent(id)}${scoped()}`),
    deleteReplay: (id: string) => call<unknown>('DELETE', `/audit/replays/${encodeURIComponent(id)}${scoped()}`),
    browse: <T>(id: string, view: string, params: Record<string, string | number | undefined>) =>
      call<T>('GET', `/audit/replays/${encodeURIComponent(id)}/${view}${scoped(params)}`),
    verify: () => call<Verification>('POST', '/audit/verify', { tenant }),
    topUps: () => call<{ records: TopUpItem[]; total: number }>('GET', `/topup/list${scoped({ pageSize: 100 })}`),
    confirmTopUp: (id: string) => call<unknown>('PUT', '/topup/confirm', { tenant, id }),
    rejectTopUp: (id: string) => call<unknown>('PUT', '/topup/reject', { tenant, id }),
    /** Names members (by id, or one by exact account or phone) and groups by id, of the tenant only. */
    directory: (ask: { members?: string[]; groups?: string[]; find?: string }) =>
      call<AuditDirectory>(
        'GET',
        `/audit/directory${scoped({ members: ask.members?.join(','), groups: ask.groups?.join(','), find: ask.find })}`,
      ),
  };
}

export type AdminApi = ReturnType<typeof adminApi>;

/** Downloads the NDJSON export with the bearer (a plain link cannot carry it) and saves it as a file. */
export async function downloadExport(credential: AdminCredential, url: string, fileName: string): Promise<number> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${credential.token}` } });
  if (!response.ok) {
    let info = response.statusText;
    try {
      info = ((await response.json()) as { info?: string }).info || info;
    } catch {
      // not an envelope
    }
    throw new Error(info);
  }
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  return blob.size;
}
