import { useMemo, useState } from 'react';
import { useAdminT } from './i18n';
import { adminApi, downloadExport, emptyFilter, type AuditEvent, type AuditPerson, type HistoryFilter } from './api';
import { describeEvent, eventTypes, namedIds, personLabel, type Names } from './describe';
import { localToRfc3339, readableTime, useLang } from './time';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';
import { useNames } from './useNames';

const PAGE_SIZE = 100;

/** What the form holds: times as the pickers give them, the member found by account or phone. */
interface FormState {
  from: string;
  to: string;
  type: string;
  stream: string;
  chat: string;
  member: AuditPerson | null;
}

const emptyForm: FormState = { from: '', to: '', type: '', stream: '', chat: '', member: null };

function toFilter(form: FormState): HistoryFilter {
  return {
    ...emptyFilter,
    from: localToRfc3339(form.from),
    to: localToRfc3339(form.to),
    type: form.type,
    stream: form.stream.trim(),
    chat: form.chat.trim(),
    actor: form.member?.id ?? '',
  };
}

export function HistoryPanel({ credential, tenant, onExpired }: { credential: AdminCredential; tenant: string; onExpired: () => void }) {
  const t = useAdminT();
  const api = useMemo(() => adminApi(credential, tenant), [credential, tenant]);
  const { error, run, setError } = useAdminCall(onExpired);
  const { names, resolve, find } = useNames(api, run);
  const [form, setForm] = useState<FormState>(emptyForm);
  const [keyword, setKeyword] = useState('');
  const [notFound, setNotFound] = useState(false);
  const [applied, setApplied] = useState<HistoryFilter | null>(null);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [next, setNext] = useState(0);
  const [loading, setLoading] = useState(false);
  const [exported, setExported] = useState('');

  const load = async (f: HistoryFilter, after: number) => {
    setLoading(true);
    if (after === 0) {
      // A new search's filter is not the old list's: the old lines go while it loads.
      setApplied(null);
      setEvents([]);
    }
    const page = await run(() => api.events(f, after, PAGE_SIZE));
    if (page) {
      const ids = page.events.map(namedIds);
      await resolve({ members: ids.flatMap((i) => i.members), groups: ids.flatMap((i) => i.groups) });
      setApplied(f);
      setEvents((shown) => (after === 0 ? page.events : [...shown, ...page.events]));
      setNext(page.next);
    }
    setLoading(false);
  };

  const lookUp = async () => {
    setNotFound(false);
    const member = await find(keyword);
    if (member) {
      setForm((f) => ({ ...f, member }));
      setKeyword('');
    } else if (member === null) setNotFound(true);
  };

  const exportAll = async () => {
    setExported('');
    try {
      const bytes = await downloadExport(credential, api.exportUrl(toFilter(form)), `${tenant}-history.ndjson`);
      setExported(t('admin.history.exported', { bytes }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section className="admin-panel" data-testid="history">
      <form
        className="admin-filter"
        onSubmit={(e) => {
          e.preventDefault();
          void load(toFilter(form), 0);
        }}
      >
        {(['from', 'to'] as const).map((name) => (
          <label key={name} className="field">
            {t(`admin.filter.${name}`)}
            <input
              className="text-input"
              type="datetime-local"
              step={1}
              name={name}
              value={form[name]}
              onChange={(e) => setForm({ ...form, [name]: e.target.value })}
            />
          </label>
        ))}
        <label className="field">
          {t('admin.filter.type')}
          <select className="text-input" name="type" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            <option value="">{t('audit.filter.anyType')}</option>
            {eventTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <div className="field">
          <span>{t('audit.filter.member')}</span>
          {form.member ? (
            <div className="admin-row" data-testid="member-chosen">
              <strong>{personLabel(names, form.member.id)}</strong>
              <span className="muted">{form.member.phone}</span>
              <button type="button" className="link-button" onClick={() => setForm({ ...form, member: null })}>
                {t('audit.filter.anyone')}
              </button>
            </div>
          ) : (
            <div className="admin-row">
              <input
                className="text-input"
                name="member"
                value={keyword}
                placeholder="alice001 / 13800000000"
                onChange={(e) => {
                  setKeyword(e.target.value);
                  setNotFound(false);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    void lookUp();
                  }
                }}
              />
              <button type="button" className="button button-secondary" disabled={!keyword.trim()} onClick={lookUp}>
                {t('audit.filter.find')}
              </button>
            </div>
          )}
          {notFound && <p className="field-error">{t('audit.filter.notFound')}</p>}
        </div>
        <details className="admin-more">
          <summary>{t('audit.filter.more')}</summary>
          {(['stream', 'chat'] as const).map((name) => (
            <label key={name} className="field">
              {t(`admin.filter.${name}`)}
              <input className="text-input" name={name} value={form[name]} onChange={(e) => setForm({ ...form, [name]: e.target.value })} />
            </label>
          ))}
        </details>
        <div className="admin-row">
          <button type="submit" className="button button-primary" disabled={loading}>
            {t('admin.history.search')}
          </button>
          <button type="button" className="button button-secondary" onClick={exportAll}>
            {t('admin.history.export')}
          </button>
        </div>
      </form>
      {error && <p className="field-error">{error}</p>}
      {exported && <p className="muted" data-testid="exported">{exported}</p>}
      {loading && !applied && <p className="muted">{t('common.loading')}</p>}
      {applied && (
        <>
          <p className="muted">{t('admin.history.count', { n: events.length })}</p>
          <ol className="admin-events" data-testid="events">
            {events.map((e) => (
              <EventLine key={e.position} event={e} names={names} />
            ))}
          </ol>
          {next > 0 && (
            <button type="button" className="button button-secondary" disabled={loading} onClick={() => load(applied, next)}>
              {t('admin.history.more')}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function EventLine({ event, names }: { event: AuditEvent; names: Names }) {
  const t = useAdminT();
  const lang = useLang();
  const [open, setOpen] = useState(false);
  return (
    <li className="admin-event" data-type={event.type} data-actor={event.actor} data-time={event.time}>
      <div className="admin-event-head">
        <time className="muted" dateTime={new Date(event.time).toISOString()}>
          {readableTime(event.time, lang)}
        </time>
        <span className="admin-event-line" data-testid="event-line">
          {describeEvent(event, names, t)}
        </span>
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t(open ? 'audit.raw.hide' : 'audit.raw.show')}
        </button>
      </div>
      {open && (
        <div data-testid="event-raw">
          <p className="muted">{t('audit.event.where', { position: event.position, stream: event.stream, revision: event.revision })}</p>
          <pre className="admin-data">{JSON.stringify({ type: event.type, actor: event.actor, data: event.data }, null, 2)}</pre>
        </div>
      )}
    </li>
  );
}
