import { useRef } from 'react';

export const LONG_PRESS_MS = 500;
const MOVE_TOLERANCE_PX = 10;

/** Handlers that call `onLongPress` after a touch held still for half a second. */
export function useLongPress(onLongPress: (x: number, y: number) => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef({ x: 0, y: 0 });

  function cancel() {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }

  return {
    onPointerDown(event: React.PointerEvent) {
      if (event.pointerType !== 'touch') return;
      cancel();
      const { clientX: x, clientY: y } = event;
      start.current = { x, y };
      timer.current = setTimeout(() => {
        timer.current = null;
        onLongPress(x, y);
      }, LONG_PRESS_MS);
    },
    onPointerMove(event: React.PointerEvent) {
      if (!timer.current) return;
      const dx = event.clientX - start.current.x;
      const dy = event.clientY - start.current.y;
      if (Math.hypot(dx, dy) > MOVE_TOLERANCE_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
  };
}
