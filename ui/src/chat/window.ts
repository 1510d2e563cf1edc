// The window of the timeline the message list renders: at most 1000 messages, moved by 200 at a
// time when the reader scrolls past either end (spec messaging.md section 9).

export const MAX_RENDERED = 1000;
export const RENDER_BUFFER = 200;

/** bottom: the newest messages, following new ones; start: from this key (null: the oldest loaded). */
export type WindowAnchor = { kind: 'bottom' } | { kind: 'start'; key: string | null };

export interface Range {
  start: number;
  end: number;
}

export function windowRange(keys: string[], anchor: WindowAnchor, max = MAX_RENDERED): Range {
  const length = keys.length;
  if (anchor.kind === 'start') {
    const index = anchor.key === null ? 0 : keys.indexOf(anchor.key);
    if (index >= 0) {
      const end = Math.min(length, index + max);
      return { start: Math.max(0, Math.min(index, end - max)), end };
    }
  }
  return { start: Math.max(0, length - max), end: length };
}

/** Reaching the top of the window: show up to 200 older messages (when the window starts later). */
export function shiftUp(keys: string[], range: Range, buffer = RENDER_BUFFER): WindowAnchor | null {
  if (range.start === 0) return null;
  return { kind: 'start', key: keys[Math.max(0, range.start - buffer)] };
}

/** Reaching the bottom of the window: show up to 200 newer messages, following the end once there. */
export function shiftDown(keys: string[], range: Range, buffer = RENDER_BUFFER): WindowAnchor | null {
  if (range.end >= keys.length) return null;
  if (range.end + buffer >= keys.length) return { kind: 'bottom' };
  return { kind: 'start', key: keys[range.start + buffer] };
}

/** A window that holds the message at `index`, with up to 200 messages before it. */
export function anchorAround(keys: string[], index: number, max = MAX_RENDERED, buffer = RENDER_BUFFER): WindowAnchor {
  if (index >= keys.length - max + buffer) return { kind: 'bottom' };
  return { kind: 'start', key: keys[Math.max(0, index - buffer)] };
}
