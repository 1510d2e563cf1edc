import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  key: string;
  label: string;
  danger?: boolean;
  icon?: React.ReactNode;
  /** after the label, at the row's end (a count) */
  trailing?: React.ReactNode;
  /** the screen shown now */
  current?: boolean;
  onSelect: () => void;
}

interface PopupMenuProps {
  items: MenuItem[];
  /** where it opens (viewport px): the pointer, or the button that opened it */
  x: number;
  y: number;
  label: string;
  onClose: () => void;
  testId?: string;
  /** the button that opened it: a press on it is left to the button (which closes the menu) */
  toggle?: HTMLElement | null;
}

const MARGIN = 8;

/**
 * A menu at a point: arrow keys, Home and End move between items, Enter or Space chooses,
 * Escape and Tab close it (focus goes back to where it was), a press outside closes it.
 */
export function PopupMenu({ items, x, y, label, onClose, testId, toggle }: PopupMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [place, setPlace] = useState({ left: x, top: y });

  useLayoutEffect(() => {
    opener.current = document.activeElement as HTMLElement | null;
    const element = menu.current;
    if (!element) return;
    const { width, height } = element.getBoundingClientRect();
    setPlace({
      left: Math.max(MARGIN, Math.min(x, window.innerWidth - width - MARGIN)),
      top: Math.max(MARGIN, Math.min(y, window.innerHeight - height - MARGIN)),
    });
    element.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [x, y]);

  useEffect(() => {
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !toggle?.contains(target)) onClose();
    }
    document.addEventListener('pointerdown', onPointerDown, true);
    window.addEventListener('resize', onClose);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      window.removeEventListener('resize', onClose);
    };
  }, [onClose, toggle]);

  function closeAndRestore() {
    onClose();
    opener.current?.focus();
  }

  function onKeyDown(event: React.KeyboardEvent) {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    switch (event.key) {
      case 'ArrowDown':
        next = (index + 1) % entries.length;
        break;
      case 'ArrowUp':
        next = (index - 1 + entries.length) % entries.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = entries.length - 1;
        break;
      case 'Escape':
      case 'Tab':
        event.preventDefault();
        event.stopPropagation();
        closeAndRestore();
        return;
      default:
        return;
    }
    event.preventDefault();
    entries[next]?.focus();
  }

  return createPortal(
    <div
      ref={menu}
      className="popup-menu"
      role="menu"
      aria-label={label}
      style={{ left: place.left, top: place.top }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
      data-testid={testId}
    >
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`popup-menu-item${item.danger ? ' popup-menu-danger' : ''}${item.current ? ' popup-menu-current' : ''}`}
          aria-current={item.current ? 'page' : undefined}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
          data-action={item.key}
        >
          {item.icon}
          <span className="popup-menu-label">{item.label}</span>
          {item.trailing}
        </button>
      ))}
    </div>,
    document.body,
  );
}
