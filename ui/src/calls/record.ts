// Call records: VoiceCall and VideoCall messages whose content is
// {"callId","media","outcome","duration"} (docs/api-calls.md).
import type { MessageKey } from '../i18n';
import { formatDuration, type Media, type Outcome } from './signals';

export interface CallRecordContent {
  callId: string;
  media: Media;
  outcome: Outcome;
  duration: number;
}

const outcomes: Outcome[] = ['cancelled', 'completed', 'rejected', 'noAnswer', 'busy'];

export function isCallRecord(msgType: string): boolean {
  return msgType === 'VoiceCall' || msgType === 'VideoCall';
}

/** The record's content, or null when it is not one. */
export function parseCallRecord(msgType: string, content: string): CallRecordContent | null {
  if (!isCallRecord(msgType)) return null;
  try {
    const raw = JSON.parse(content) as Partial<CallRecordContent>;
    if (!raw || typeof raw.callId !== 'string' || !outcomes.includes(raw.outcome as Outcome)) return null;
    const duration = typeof raw.duration === 'number' && raw.duration > 0 ? raw.duration : 0;
    return { callId: raw.callId, media: msgType === 'VideoCall' ? 'video' : 'voice', outcome: raw.outcome as Outcome, duration };
  } catch {
    return null;
  }
}

/** The line a record shows: the outcome, with the duration of a completed call. */
export function recordLine(record: CallRecordContent, translate: (key: MessageKey) => string): string {
  const outcome = translate(`call.outcome.${record.outcome}` as MessageKey);
  return record.outcome === 'completed' ? `${outcome} · ${formatDuration(record.duration)}` : outcome;
}
