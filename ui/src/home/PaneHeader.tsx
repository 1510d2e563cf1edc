import { useAtomValue, useSetAtom } from 'jotai';
import { BackIcon } from '../components/icons';
import { useT } from '../i18n';
import { isMobileAtom, paneAtom } from '../state/ui';

/** Title row of the right panel; on mobile it carries the back button to the list. */
export function PaneHeader({
  title,
  subtitle,
  leading,
  actions,
}: {
  title: string;
  subtitle?: React.ReactNode;
  leading?: React.ReactNode;
  /** buttons at the end of the row */
  actions?: React.ReactNode;
}) {
  const t = useT();
  const isMobile = useAtomValue(isMobileAtom);
  const setPane = useSetAtom(paneAtom);
  return (
    <header className="pane-header">
      {isMobile ? (
        <button
          type="button"
          className="icon-button"
          aria-label={t('common.back')}
          onClick={() => setPane({ kind: 'none' })}
          data-testid="back-button"
        >
          <BackIcon />
        </button>
      ) : null}
      {leading}
      <div className="pane-title">
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
      </div>
      {actions ? <div className="pane-actions">{actions}</div> : null}
    </header>
  );
}
