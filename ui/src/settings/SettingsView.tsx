import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useRef, useState } from 'react';
import useSWR from 'swr';
import { useSystemInfo } from '../api/hooks';
import type { UserInfo } from '../api/types';
import { authAtom } from '../auth/authState';
import { logout } from '../auth/logout';
import { uploadFile } from '../chat/upload';
import { Avatar } from '../components/Avatar';
import { Dialog } from '../components/Dialog';
import { Field } from '../components/Field';
import { currentLanguage, languageAtom, languages, useT, type Language, type MessageKey } from '../i18n';
import { PaneHeader } from '../home/PaneHeader';
import { goTo } from '../routing/useRoute';
import { showToast } from '../state/toast';
import { paneAtom } from '../state/ui';
import {
  BACKGROUNDS,
  buildFeedback,
  eraseAccount,
  modifyPassword,
  modifyProfile,
  modifyUsername,
  refreshMe,
  setPreferences,
  settingsKeys,
  type Preferences,
} from './api';
import { compressAvatar } from './avatar';
import {
  checkAccountId,
  checkAvatarFile,
  checkFeedback,
  checkFeedbackImages,
  checkName,
  checkPasswordChange,
} from './logic';
import { askNotificationPermission } from './alerts';
import { usePreferences } from './usePreferences';
import { mutate } from 'swr';

const GENDERS = ['male', 'female', 'prefer not to say'] as const;
const FEEDBACK_TYPES = ['suggestion', 'bug', 'complaint', 'other'] as const;
export const CLIENT_VERSION = '1.1.45';

function uploadTexts(t: ReturnType<typeof useT>) {
  return {
    timeout: t('upload.timeout'),
    cancelled: t('upload.cancelled'),
    network: t('common.requestFailed'),
    failed: t('common.requestFailed'),
  };
}

/** The settings page (route /setting): every item of spec accounts.md section 2. */
export function SettingsView({ me }: { me: UserInfo }) {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const setPane = useSetAtom(paneAtom);
  // The member's stored settings: until they arrive the general settings
  // are not shown, so that no default flashes or is toggled as if stored.
  const { prefs, data: storedPrefs } = usePreferences();
  const referee = useSWR<{ code: string; link: string }>(settingsKeys.refereeLink);
  const system = useSystemInfo();
  const [name, setName] = useState(me.name);
  const [nameError, setNameError] = useState<string>();
  const [dialog, setDialog] = useState<'password' | 'account' | 'feedback' | 'delete' | null>(null);
  const avatarInput = useRef<HTMLInputElement>(null);

  async function saveProfile(change: { name?: string; gender?: string; headUrl?: string }, done: string) {
    try {
      const written = await modifyProfile(change);
      await refreshMe(written.position);
      showToast(done, 'success');
    } catch (error) {
      showToast((error as Error).message, 'error');
    }
  }

  async function saveName() {
    const problem = checkName(name);
    setNameError(problem ? t(problem) : undefined);
    if (!problem) await saveProfile({ name: name.trim() }, t('settings.saved'));
  }

  async function changeAvatar(file: File | undefined) {
    if (!file || !auth) return;
    const problem = checkAvatarFile(file);
    if (problem) {
      showToast(t(problem), 'error');
      return;
    }
    try {
      const compressed = await compressAvatar(file);
      const uploaded = await uploadFile(compressed, 'avatar.jpg', {
        token: auth.token,
        language: currentLanguage(),
        type: 'avatar',
        texts: uploadTexts(t),
      });
      await saveProfile({ headUrl: uploaded.filePath }, t('settings.avatarUpdated'));
    } catch (error) {
      showToast((error as Error).message, 'error');
    }
  }

  async function toggle(change: Partial<Preferences>) {
    if (change.notifications) askNotificationPermission();
    const next = { ...prefs, ...change };
    try {
      await mutate(settingsKeys.preferences, setPreferences(change), { optimisticData: next, rollbackOnError: true });
    } catch (error) {
      showToast((error as Error).message, 'error');
    }
  }

  const [language, setLanguage] = useAtom(languageAtom);
  const switchRow = (key: 'notifications' | 'showMessageTime' | 'imagePreviewWindow' | 'readSync') => (
    <label className="settings-row" key={key}>
      <span>{t(`settings.${key}`)}</span>
      <input
        type="checkbox"
        role="switch"
        checked={prefs[key]}
        onChange={(event) => void toggle({ [key]: event.target.checked })}
        data-testid={`pref-${key}`}
      />
    </label>
  );

  return (
    <section className="pane-section" aria-label={t('settings.title')} data-testid="settings">
      <PaneHeader title={t('settings.title')} />
      <div className="pane-scroll settings">
        <div className="settings-head">
          <button
            type="button"
            className="settings-avatar"
            onClick={() => avatarInput.current?.click()}
            aria-label={t('settings.changeAvatar')}
            data-testid="settings-avatar"
          >
            <span className="crown" aria-hidden="true" data-testid="settings-crown">
              👑
            </span>
            <Avatar name={me.name || me.code} headUrl={me.headUrl} seed={me.id} size={64} />
          </button>
          <input
            ref={avatarInput}
            type="file"
            accept="image/jpeg,image/png,image/gif"
            hidden
            data-testid="avatar-input"
            onChange={(event) => {
              void changeAvatar(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <div>
            <strong data-testid="settings-name">{me.name || me.code}</strong>
            <p className="muted">@{me.code}</p>
          </div>
        </div>

        <h2 className="settings-title">{t('settings.profile')}</h2>
        <Field
          label={t('settings.name')}
          value={name}
          onChange={setName}
          error={nameError}
          name="name"
          addon={
            <button type="button" className="button button-secondary" onClick={() => void saveName()} data-testid="save-name">
              {t('settings.save')}
            </button>
          }
        />
        <label className="settings-row">
          <span>{t('settings.gender')}</span>
          <select
            value={me.gender || 'prefer not to say'}
            onChange={(event) => void saveProfile({ gender: event.target.value }, t('settings.saved'))}
            data-testid="gender"
          >
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {t(`gender.${g === 'prefer not to say' ? 'unknown' : g}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="settings-row">
          <span>{t('settings.accountId')}</span>
          <span className="muted" data-testid="settings-account">
            {me.code}
          </span>
          <button type="button" className="button button-secondary" onClick={() => setDialog('account')} data-testid="change-account">
            {t('settings.change')}
          </button>
        </div>
        <div className="settings-row">
          <span>{t('settings.password')}</span>
          <button type="button" className="button button-secondary" onClick={() => setDialog('password')} data-testid="change-password">
            {t('settings.change')}
          </button>
        </div>
        <div className="settings-row">
          <span>{t('settings.massSend')}</span>
          <button type="button" className="button button-secondary" onClick={() => setPane({ kind: 'fixed', id: '002' })}>
            {t('settings.open')}
          </button>
        </div>

        <h2 className="settings-title">{t('settings.general')}</h2>
        <label className="settings-row">
          <span>{t('landing.language')}</span>
          <select value={language} onChange={(event) => setLanguage(event.target.value as Language)} data-testid="settings-language">
            {languages.map((option) => (
              <option key={option.code} value={option.code} lang={option.htmlLang}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        {storedPrefs && (
          <>
            {switchRow('notifications')}
            {switchRow('showMessageTime')}
            {switchRow('imagePreviewWindow')}
            {switchRow('readSync')}
            <div className="settings-row" role="radiogroup" aria-label={t('settings.fontSize')}>
              <span>{t('settings.fontSize')}</span>
              {([0, 1, 2] as const).map((size) => (
                <label key={size} className="check">
                  <input
                    type="radio"
                    name="fontSize"
                    checked={prefs.fontSize === size}
                    onChange={() => void toggle({ fontSize: size })}
                    data-testid={`font-${size}`}
                  />
                  {t(size === 0 ? 'settings.fontSmall' : size === 1 ? 'settings.fontMedium' : 'settings.fontLarge')}
                </label>
              ))}
            </div>
            <label className="settings-row">
              <span>{t('settings.background')}</span>
              <select value={prefs.background} onChange={(event) => void toggle({ background: event.target.value })} data-testid="background">
                {BACKGROUNDS.map((b) => (
                  <option key={b} value={b}>
                    {t(`background.${b}`)}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}

        <h2 className="settings-title">{t('settings.more')}</h2>
        {system.data?.topUp ? (
          <div className="settings-row">
            <span>{t('topup.title')}</span>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setPane({ kind: 'topup' });
                goTo('#/topup');
              }}
              data-testid="open-topup"
            >
              {t('topup.open')}
            </button>
          </div>
        ) : null}
        <div className="settings-row">
          <span>{t('settings.feedback')}</span>
          <button type="button" className="button button-secondary" onClick={() => setDialog('feedback')} data-testid="open-feedback">
            {t('settings.open')}
          </button>
        </div>
        {referee.data ? (
          <div className="settings-row">
            <span>{t('settings.invite')}</span>
            <code data-testid="referee-code">{referee.data.code}</code>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => void navigator.clipboard?.writeText(referee.data!.link).then(() => showToast(t('fav.copied'), 'success'))}
            >
              {t('fav.copy')}
            </button>
          </div>
        ) : null}
        <div className="settings-row">
          <span>{t('settings.about')}</span>
          <span className="muted" data-testid="version">
            {t('settings.version', { version: CLIENT_VERSION })}
          </span>
          <button type="button" className="button button-secondary" onClick={() => showToast(t('settings.latest'), 'success')}>
            {t('settings.checkVersion')}
          </button>
        </div>
        <button type="button" className="button button-danger button-block" onClick={() => logout({ callServer: true })} data-testid="settings-logout">
          {t('common.logout')}
        </button>
        <div className="settings-row">
          <span>{t('settings.deleteAccount')}</span>
          <button type="button" className="button button-secondary" onClick={() => setDialog('delete')} data-testid="delete-account">
            {t('settings.open')}
          </button>
        </div>
      </div>
      {dialog === 'password' ? <PasswordDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'account' ? <AccountDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'feedback' ? <FeedbackDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'delete' ? <DeleteAccountDialog onClose={() => setDialog(null)} /> : null}
    </section>
  );
}

/**
 * A dialog's submit: a local check first (its message key, or null), then the call; success
 * toasts done and closes, a refusal shows the server's text and lets the member try again.
 */
function useSubmit(onClose: () => void) {
  const t = useT();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function run(problem: MessageKey | null, call: () => Promise<unknown>, done: MessageKey) {
    if (problem) {
      setError(t(problem));
      return;
    }
    setBusy(true);
    try {
      await call();
      showToast(t(done), 'success');
      onClose();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }
  return { error, setError, busy, run };
}

function PasswordDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const { error, busy, run } = useSubmit(onClose);

  function submit() {
    return run(
      checkPasswordChange({ oldPassword, newPassword, confirmPassword }),
      () => modifyPassword(oldPassword, newPassword, confirmPassword),
      'settings.passwordChanged',
    );
  }

  return (
    <Dialog
      title={t('settings.password')}
      onClose={onClose}
      testId="password-dialog"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('fav.cancel')}
          </button>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void submit()} data-testid="password-submit">
            {t('settings.save')}
          </button>
        </>
      }
    >
      <Field label={t('settings.oldPassword')} type="password" value={oldPassword} onChange={setOld} name="oldPassword" data-autofocus />
      <Field label={t('settings.newPassword')} type="password" value={newPassword} onChange={setNew} name="newPassword" hint={t('settings.passwordRule')} />
      <Field label={t('settings.confirmPassword')} type="password" value={confirmPassword} onChange={setConfirm} name="confirmPassword" />
      {error ? (
        <p className="field-error" role="alert" data-testid="password-error">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

/**
 * A dialog whose action takes two steps: the first checks what was typed (check names what is
 * wrong) and asks to confirm; the confirmation runs it. A failure goes back to the first step.
 */
function TwoStepDialog({
  id,
  title,
  danger,
  action,
  confirmAction,
  prompt,
  check,
  run,
  onClose,
  children,
}: {
  id: string;
  title: string;
  danger?: boolean;
  action: string;
  confirmAction: string;
  prompt: React.ReactNode;
  check: () => string | undefined;
  run: () => Promise<void>;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  // A second click while the first runs is ignored; the button stays enabled so that it keeps
  // the focus, and Escape still closes the dialog after a failure.
  const running = useRef(false);
  const kind = danger ? 'button button-danger' : 'button button-primary';

  async function submit() {
    if (running.current) return;
    running.current = true;
    try {
      await run();
    } catch (e) {
      setConfirming(false);
      setError((e as Error).message);
    } finally {
      running.current = false;
    }
  }

  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={`${id}-dialog`}
      role={confirming ? 'alertdialog' : 'dialog'}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('fav.cancel')}
          </button>
          {confirming ? (
            <button type="button" className={kind} onClick={() => void submit()} data-testid={`${id}-confirm`}>
              {confirmAction}
            </button>
          ) : (
            <button
              type="button"
              className={kind}
              data-testid={`${id}-submit`}
              onClick={() => {
                const problem = check();
                setError(problem);
                if (!problem) setConfirming(true);
              }}
            >
              {action}
            </button>
          )}
        </>
      }
    >
      {children}
      {confirming ? prompt : null}
      {error ? (
        <p className="field-error" role="alert" data-testid={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

function AccountDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [account, setAccount] = useState('');
  return (
    <TwoStepDialog
      id="account"
      title={t('settings.accountId')}
      action={t('settings.save')}
      confirmAction={t('settings.confirm')}
      prompt={<p data-testid="account-prompt">{t('settings.accountConfirm', { account })}</p>}
      check={() => {
        const problem = checkAccountId(account);
        return problem ? t(problem) : undefined;
      }}
      run={async () => {
        const written = await modifyUsername(account);
        await refreshMe(written.position);
        showToast(t('settings.accountChanged'), 'success');
        onClose();
      }}
      onClose={onClose}
    >
      <p className="muted">{t('settings.accountOnce')}</p>
      <Field label={t('settings.newAccountId')} value={account} onChange={setAccount} name="username" data-autofocus />
    </TwoStepDialog>
  );
}

/** "Delete my account": the password, then a second confirmation; the server erases the member. */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [password, setPassword] = useState('');
  return (
    <TwoStepDialog
      id="delete"
      title={t('settings.deleteAccount')}
      danger
      action={t('settings.deleteAccount')}
      confirmAction={t('settings.deleteAccountConfirmButton')}
      prompt={
        <p role="alert" data-testid="delete-prompt">
          {t('settings.deleteAccountConfirm')}
        </p>
      }
      check={() => (password ? undefined : t('settings.deleteAccountPassword'))}
      run={async () => {
        await eraseAccount(password);
        showToast(t('settings.accountDeleted'), 'success');
        logout({ callServer: false }); // the erasure ended every session
      }}
      onClose={onClose}
    >
      <p data-testid="delete-warning">{t('settings.deleteAccountWarning')}</p>
      <Field label={t('settings.deleteAccountPassword')} type="password" value={password} onChange={setPassword} name="password" data-autofocus />
    </TwoStepDialog>
  );
}

function FeedbackDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const [type, setType] = useState('');
  const [content, setContent] = useState('');
  const [images, setImages] = useState<{ name: string; path: string }[]>([]);
  const { error, setError, busy, run } = useSubmit(onClose);

  async function addImages(list: FileList | null) {
    const files = [...(list ?? [])];
    const problem = checkFeedbackImages(files, images.length);
    if (problem) {
      setError(t(problem));
      return;
    }
    if (!auth) return;
    try {
      for (const file of files) {
        const uploaded = await uploadFile(file, file.name, { token: auth.token, language: currentLanguage(), type: 'feedback', texts: uploadTexts(t) });
        setImages((now) => [...now, { name: file.name, path: uploaded.filePath }]);
      }
    } catch (e) {
      setError((e as Error).message);
    }
  }

  function submit() {
    return run(checkFeedback(type, content), () => buildFeedback(type, content.trim(), images.map((i) => i.path)), 'feedback.sent');
  }

  return (
    <Dialog
      title={t('settings.feedback')}
      onClose={onClose}
      testId="feedback-dialog"
      footer={
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void submit()} data-testid="feedback-submit">
          {t('feedback.send')}
        </button>
      }
    >
      <label className="settings-row">
        <span>{t('feedback.type')}</span>
        <select value={type} onChange={(event) => setType(event.target.value)} data-testid="feedback-type">
          <option value="">{t('feedback.chooseType')}</option>
          {FEEDBACK_TYPES.map((ft) => (
            <option key={ft} value={ft}>
              {t(`feedback.${ft}`)}
            </option>
          ))}
        </select>
      </label>
      <textarea
        className="feedback-content"
        value={content}
        maxLength={1000}
        onChange={(event) => setContent(event.target.value)}
        placeholder={t('feedback.content')}
        aria-label={t('feedback.content')}
        data-testid="feedback-content"
      />
      <label className="settings-row">
        <span>{t('feedback.screenshots', { n: images.length })}</span>
        <input
          type="file"
          accept="image/jpeg,image/png,image/gif"
          multiple
          disabled={images.length >= 5}
          onChange={(event) => {
            void addImages(event.target.files);
            event.target.value = '';
          }}
          data-testid="feedback-images"
        />
      </label>
      <ul className="feedback-images">
        {images.map((image) => (
          <li key={image.path}>
            {image.name}{' '}
            <button type="button" className="link-button" onClick={() => setImages((now) => now.filter((i) => i.path !== image.path))}>
              {t('fav.delete')}
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="field-error" role="alert" data-testid="feedback-error">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
