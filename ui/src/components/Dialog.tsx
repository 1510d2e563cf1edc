import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../i18n';

interface DialogProps {
  title: string;
  onClose: () => void;
  children?: React.ReactNode;
  footer?: React.ReactNode;
  /** alertdialog for confirmations */
  role?: 'dialog' | 'alertdialog';
  testId?: string;
  wide?: boolean;
}

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), textarea, [tabindex="0"]';

/** A modal over the page: focus moves in and stays in, Escape or the backdrop closes it, focus goes back after. */
export function Dialog({ title, onClose, children, footer, role = 'dialog', testId, wide }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const element = panel.current;
    const first = element?.querySelector<HTMLElement>('[data-autofocus]') ?? element?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (previous && document.contains(previous)) previous.focus();
    };
  }, []);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className={`dialog${wide ? ' dialog-wide' : ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {children}
        {footer ? <div className="dialog-actions">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}

interface ConfirmProps {
  title: string;
  body?: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/** A question before a destructive step; Cancel has the focus, so Enter does not destroy anything. */
export function ConfirmDialog({ title, body, confirmLabel, onConfirm, onCancel, testId }: ConfirmProps) {
  const t = useT();
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      role="alertdialog"
      testId={testId}
      footer={
        <>
          <button
            type="button"
            className="button button-secondary"
            onClick={onCancel}
            data-testid="confirm-cancel"
            data-autofocus
          >
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={onConfirm}
            data-testid="confirm-ok"
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {body ? <div className="dialog-body">{body}</div> : null}
    </Dialog>
  );
}
