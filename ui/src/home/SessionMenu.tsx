import { useEffect, useRef } from 'react';
import { actionLabels, type SessionAction } from '../chat/conversations';
import { useT } from '../i18n';

export interface MenuPlace {
  x: number;
  y: number;
}

interface SessionMenuProps {
  actions: SessionAction[];
  place: MenuPlace;
  onPick: (action: SessionAction) => void;
  onClose: () => void;
}

/** The context menu of a conversation; closes on a pick, Escape, or a press outside it. */
export function SessionMenu({ actions, place, onPick, onClose }: SessionMenuProps) {
  const t = useT();
  const ref = useRef<HTMLUListElement>(null);

  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const outside = (event: Event) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onClose();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('keydown', escape);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('keydown', escape);
      window.removeEventListener('resize', onClose);
    };
  }, [onClose]);

  const left = Math.max(8, Math.min(place.x, window.innerWidth - 220));
  const top = Math.max(8, Math.min(place.y, window.innerHeight - 48 * actions.length - 16));
  return (
    <ul className="context-menu" role="menu" ref={ref} style={{ left, top }} data-testid="session-menu">
      {actions.map((action) => (
        <li key={action} role="none">
          <button
            type="button"
            role="menuitem"
            className="context-menu-item"
            data-action={action}
            onClick={() => {
              onClose();
              onPick(action);
            }}
          >
            {t(actionLabels[action])}
          </button>
        </li>
      ))}
    </ul>
  );
}
