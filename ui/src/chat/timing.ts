// Rate limits of spec messaging.md section 9: scroll-to-bottom throttled to one per 150 ms, the
// history-page request debounced by 150 ms.

export const SCROLL_BOTTOM_THROTTLE_MS = 150;
export const HISTORY_DEBOUNCE_MS = 150;

export interface Limited {
  (): void;
  cancel: () => void;
}

/** Runs at once, then at most once per `ms` (the last call in a busy period runs at its end). */
export function throttle(run: () => void, ms: number, now: () => number = Date.now): Limited {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const call = (() => {
    const wait = last + ms - now();
    if (wait <= 0) {
      last = now();
      run();
    } else {
      timer ??= setTimeout(() => {
        timer = null;
        last = now();
        run();
      }, wait);
    }
  }) as Limited;
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return call;
}

/** Runs `ms` after the last of a burst of calls. */
export function debounce(run: () => void, ms: number): Limited {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const call = (() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      run();
    }, ms);
  }) as Limited;
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return call;
}
