import { useAtomValue } from 'jotai';
import { toastsAtom } from '../state/toast';

export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          {capitalised(toast.text)}
        </div>
      ))}
    </div>
  );
}

/** Server texts may start in lower case; a toast reads as a sentence. */
function capitalised(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
