import { useCallback, useEffect, useMemo, useState } from 'react';
import type { GroupMember, Message, Session } from '../api/types';
import { previewText } from '../chat/preview';
import { useT } from '../i18n';
import { adminApi, type AdminApi, type Replay } from './api';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';

const POLL_MS = 1000;

export function ReplaysPanel({ credential, tenant, onExpired }: { credential: AdminCredential; tenant: string; onExpired: () => void }) {
  const t = useT();
  const api = useMemo(() => adminApi(credential, tenant), [credential, tenant]);
  const { error, run } = useAdminCall(onExpired);
  const [replays, setReplays] = useState<Replay[]>([]);
  const [at, setAt] = useState('');
  const [browsing, setBrowsing] = useState<Replay | null>(null);

  const refresh = useCallback(async () => {
    const list = await run(api.replays);
    if (list) setReplays(list);
  }, [api, run]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const running = replays.some((r) => r.state === 'running');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  const start = async () => {
    const point = at.trim();
    const body = point === '' ? {} : /^\d+$/.test(point) ? { position: Number(point) } : { time: point };
    if (await run(() => api.startReplay(body))) {
      setAt('');
      await refresh();
    }
  };

  if (browsing) return <ReplayBrowser api={api} replay={browsing} onClose={() => setBrowsing(null)} onExpired={onExpired} />;

  return (
    <section className="admin-panel" data-testid="replays">
      <p className="muted">{t('admin.replay.lead')}</p>
      <div className="admin-row">
        <input
          className="text-input"
          name="at"
          value={at}
          placeholder={t('admin.replay.at')}
          onChange={(e) => setAt(e.target.value)}
        />
        <button type="button" className="button button-primary" onClick={start}>
          {t('admin.replay.start')}
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      <table className="admin-table">
        <thead>
          <tr>
            <th>{t('admin.replay.id')}</th>
            <th>{t('admin.replay.position')}</th>
            <th>{t('admin.replay.state')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {replays.map((r) => (
            <tr key={r.id} data-replay={r.id} data-state={r.state}>
              <td>{r.id}</td>
              <td>
                {r.position}
                {r.time ? ` (${r.time})` : ''}
              </td>
              <td>
                {r.state === 'running' ? t('admin.replay.progress', { done: r.done }) : t(`admin.replay.${r.state}`)}
                {r.error ? ` ${r.error}` : ''}
              </td>
              <td className="admin-row">
                <button type="button" className="button button-secondary" disabled={r.state !== 'done'} onClick={() => setBrowsing(r)}>
                  {t('admin.replay.browse')}
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={async () => {
                    if ((await run(() => api.deleteReplay(r.id))) !== undefined) await refresh();
                  }}
                >
                  {t('admin.replay.delete')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type View =
  | { kind: 'sessions'; sessions: Session[] }
  | { kind: 'history'; session: Session; messages: Message[] }
  | { kind: 'members'; groupId: string; members: GroupMember[] };

/** Browses a replay with the members' own queries: a member's conversations, a conversation's history, a group's members. */
function ReplayBrowser({ api, replay, onClose, onExpired }: { api: AdminApi; replay: Replay; onClose: () => void; onExpired: () => void }) {
  const t = useT();
  const { error, run } = useAdminCall(onExpired);
  const [memberId, setMemberId] = useState('');
  const [view, setView] = useState<View | null>(null);

  const sessions = async () => {
    const list = await run(() => api.browse<Session[]>(replay.id, 'sessions', { memberId: memberId.trim() }));
    if (list) setView({ kind: 'sessions', sessions: list });
  };
  const history = async (session: Session) => {
    const chat = session.chatType === 'Group' ? { groupId: session.groupId } : { friendId: session.friendMemberId };
    const messages = await run(() => api.browse<Message[]>(replay.id, 'history', { memberId: memberId.trim(), ...chat, size: 50 }));
    if (messages) setView({ kind: 'history', session, messages });
  };
  const members = async (groupId: string) => {
    const list = await run(() => api.browse<GroupMember[]>(replay.id, 'groupMembers', { groupId }));
    if (list) setView({ kind: 'members', groupId, members: list });
  };

  return (
    <section className="admin-panel" data-testid="replay-browser">
      <div className="admin-row">
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('admin.replay.back')}
        </button>
        <strong>{t('admin.replay.asOf', { id: replay.id, position: replay.position })}</strong>
      </div>
      <form
        className="admin-row"
        onSubmit={(e) => {
          e.preventDefault();
          void sessions();
        }}
      >
        <input
          className="text-input"
          name="memberId"
          value={memberId}
          placeholder={t('admin.replay.memberId')}
          onChange={(e) => setMemberId(e.target.value)}
        />
        <button type="submit" className="button button-primary" disabled={!memberId.trim()}>
          {t('admin.replay.sessions')}
        </button>
      </form>
      {error && <p className="field-error">{error}</p>}
      {view?.kind === 'sessions' && (
        <ul className="admin-list" data-testid="replay-sessions">
          {view.sessions.length === 0 && <li className="muted">{t('admin.replay.none')}</li>}
          {view.sessions.map((s) => (
            <li key={s.id}>
              <button type="button" className="link-button" onClick={() => history(s)}>
                {s.remark || s.name || s.friendMemberId || s.groupId}
              </button>{' '}
              <span className="muted">{previewText(s.lastMessageType, s.lastMessageContent, t)}</span>
              {s.chatType === 'Group' && (
                <button type="button" className="link-button" onClick={() => members(s.groupId)}>
                  {t('admin.replay.members')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {view?.kind === 'history' && (
        <>
          <p>
            <button type="button" className="link-button" onClick={sessions}>
              {t('admin.replay.sessions')}
            </button>{' '}
            › {view.session.name || view.session.friendMemberId || view.session.groupId}
          </p>
          <ul className="admin-list" data-testid="replay-history">
            {view.messages.length === 0 && <li className="muted">{t('admin.replay.none')}</li>}
            {view.messages.map((m) => (
              <li key={m.id}>
                <span className="muted">{new Date(m.serverReceiveTime).toISOString()}</span> <strong>{m.from}</strong>:{' '}
                {previewText(m.msgType, m.content, t)}
              </li>
            ))}
          </ul>
        </>
      )}
      {view?.kind === 'members' && (
        <table className="admin-table" data-testid="replay-members">
          <tbody>
            {view.members.map((m) => (
              <tr key={m.memberId} data-member={m.memberId} data-role={m.role}>
                <td>{m.name || m.memberId}</td>
                <td>{m.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
