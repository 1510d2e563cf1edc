import { useAtomValue } from 'jotai';
import { toastsAtom } from '../state/toast';

export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          {toast.text}
        </div>
      ))}
    </div>
  );
}
