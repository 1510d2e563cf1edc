import { useCallback, useEffect, useMemo, useState } from 'react';
import type { GroupMember, Message, Session } from '../api/types';
import { previewText, sessionPreview } from '../chat/preview';
import { useAdminT } from './i18n';
import { adminApi, type AdminApi, type Replay } from './api';
import { groupLabel, personLabel } from './describe';
import { localToRfc3339, readableTime, useLang } from './time';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';
import { useNames } from './useNames';

const POLL_MS = 1000;

export function ReplaysPanel({ credential, tenant, onExpired }: { credential: AdminCredential; tenant: string; onExpired: () => void }) {
  const t = useAdminT();
  const lang = useLang();
  const api = useMemo(() => adminApi(credential, tenant), [credential, tenant]);
  const { error, run } = useAdminCall(onExpired);
  const [replays, setReplays] = useState<Replay[] | null>(null);
  const [at, setAt] = useState('');
  const [position, setPosition] = useState('');
  const [browsing, setBrowsing] = useState<Replay | null>(null);

  const refresh = useCallback(async () => {
    const list = await run(api.replays);
    if (list) setReplays(list);
  }, [api, run]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const running = !!replays?.some((r) => r.state === 'running');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  const start = async () => {
    const body = position.trim() ? { position: Number(position.trim()) } : at ? { time: localToRfc3339(at) } : {};
    if (await run(() => api.startReplay(body))) {
      setAt('');
      setPosition('');
      await refresh();
    }
  };

  if (browsing) return <ReplayBrowser api={api} replay={browsing} onClose={() => setBrowsing(null)} onExpired={onExpired} />;

  return (
    <section className="admin-panel" data-testid="replays">
      <p className="muted">{t('admin.replay.lead')}</p>
      <div className="admin-row">
        <label className="field">
          {t('audit.replay.time')}
          <input className="text-input" type="datetime-local" step={1} name="at" value={at} onChange={(e) => setAt(e.target.value)} />
        </label>
        <label className="field">
          {t('audit.replay.position')}
          <input
            className="text-input"
            name="position"
            inputMode="numeric"
            value={position}
            onChange={(e) => setPosition(e.target.value.replace(/\D/g, ''))}
          />
        </label>
        <button type="button" className="button button-primary" onClick={start}>
          {t('admin.replay.start')}
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {replays === null && !error && <p className="muted">{t('common.loading')}</p>}
      {replays !== null && (
        <div className="admin-scroll">
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
                    {r.time ? `${readableTime(Date.parse(r.time), lang)} ` : ''}
                    <span className="muted">#{r.position}</span>
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
        </div>
      )}
    </section>
  );
}

type View =
  | { kind: 'sessions'; sessions: Session[] }
  | { kind: 'history'; session: Session; messages: Message[] }
  | { kind: 'members'; groupId: string; members: GroupMember[] };

/** Browses a replay with the members' own queries: a member's conversations, a conversation's timeline, a group's members. */
function ReplayBrowser({ api, replay, onClose, onExpired }: { api: AdminApi; replay: Replay; onClose: () => void; onExpired: () => void }) {
  const t = useAdminT();
  const lang = useLang();
  const { error, run } = useAdminCall(onExpired);
  const { names, resolve, find } = useNames(api, run);
  const [keyword, setKeyword] = useState('');
  const [memberId, setMemberId] = useState('');
  const [notFound, setNotFound] = useState(false);
  const [view, setView] = useState<View | null>(null);
  const when = replay.time ? readableTime(Date.parse(replay.time), lang) : `#${replay.position}`;

  const sessionsOf = async (id: string) => {
    const list = await run(() => api.browse<Session[]>(replay.id, 'sessions', { memberId: id }));
    if (!list) return;
    await resolve({ members: list.map((s) => s.friendMemberId).filter(Boolean), groups: list.map((s) => s.groupId).filter(Boolean) });
    setView({ kind: 'sessions', sessions: list });
  };
  const lookUp = async () => {
    setNotFound(false);
    const typed = keyword.trim();
    const member = await find(typed);
    if (member === undefined) return;
    const id = member?.id ?? (/^\d{12,}$/.test(typed) ? typed : '');
    if (!id) return setNotFound(true);
    await resolve({ members: [id], groups: [] });
    setMemberId(id);
    await sessionsOf(id);
  };
  const history = async (session: Session) => {
    const chat = session.chatType === 'Group' ? { groupId: session.groupId } : { friendId: session.friendMemberId };
    const messages = await run(() => api.browse<Message[]>(replay.id, 'history', { memberId, ...chat, size: 200 }));
    if (!messages) return;
    const ordered = [...messages].sort((a, b) => (a.seq ?? a.serverReceiveTime) - (b.seq ?? b.serverReceiveTime));
    await resolve({ members: ordered.flatMap((m) => [m.from, m.to]).filter(Boolean), groups: session.groupId ? [session.groupId] : [] });
    setView({ kind: 'history', session, messages: ordered });
  };
  const members = async (groupId: string) => {
    const list = await run(() => api.browse<GroupMember[]>(replay.id, 'groupMembers', { groupId }));
    if (!list) return;
    await resolve({ members: list.map((m) => m.memberId), groups: [groupId] });
    setView({ kind: 'members', groupId, members: list });
  };
  const chatName = (s: Session) =>
    s.groupId ? groupLabel(names, s.groupId) : names.members.has(s.friendMemberId) ? personLabel(names, s.friendMemberId) : s.name || s.friendMemberId;

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
          void lookUp();
        }}
      >
        <input
          className="text-input"
          name="member"
          value={keyword}
          aria-label={t('audit.filter.member')}
          placeholder={t('audit.filter.member')}
          onChange={(e) => {
            setKeyword(e.target.value);
            setNotFound(false);
          }}
        />
        <button type="submit" className="button button-primary" disabled={!keyword.trim()}>
          {t('admin.replay.sessions')}
        </button>
      </form>
      {notFound && <p className="field-error">{t('audit.filter.notFound')}</p>}
      {memberId && <p data-testid="replay-member">{personLabel(names, memberId)}</p>}
      {error && <p className="field-error">{error}</p>}
      {view?.kind === 'sessions' && (
        <ul className="admin-list" data-testid="replay-sessions">
          {view.sessions.length === 0 && <li className="muted">{t('admin.replay.none')}</li>}
          {view.sessions.map((s) => (
            <li key={s.id}>
              <button type="button" className="link-button" onClick={() => history(s)}>
                {chatName(s)}
              </button>{' '}
              <span className="muted">{sessionPreview(s, t)}</span>{' '}
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
            <button type="button" className="link-button" onClick={() => sessionsOf(memberId)}>
              {t('admin.replay.sessions')}
            </button>{' '}
            › {chatName(view.session)}
          </p>
          <h3 className="admin-timeline-title">{t('audit.replay.timeline', { when })}</h3>
          <ol className="admin-timeline" data-testid="replay-history">
            {view.messages.length === 0 && <li className="muted">{t('admin.replay.none')}</li>}
            {view.messages.map((m) => (
              <li key={m.id} data-from={m.from} className={m.from === memberId ? 'admin-timeline-own' : undefined}>
                <span className="muted">{readableTime(m.serverReceiveTime, lang)}</span>
                <strong>{personLabel(names, m.from)}</strong>
                <span>
                  {m.recalled ? t('audit.replay.recalled') : previewText(m.msgType, m.content, t)}
                  {m.edited && !m.recalled ? ` ${t('audit.replay.edited')}` : ''}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
      {view?.kind === 'members' && (
        <table className="admin-table" data-testid="replay-members">
          <tbody>
            {view.members.map((m) => (
              <tr key={m.memberId} data-member={m.memberId} data-role={m.role}>
                <td>{personLabel(names, m.memberId)}</td>
                <td>{m.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
