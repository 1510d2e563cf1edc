import { useId, useState } from 'react';
import { checkTenant, knownTenants, type TenantCheck } from '../auth/tenants';
import { checkServerId } from '../auth/validation';
import { Field } from '../components/Field';
import { useT } from '../i18n';
import { showToast } from '../state/toast';

interface ServerIdFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/**
 * The server ID of the login and registration pages: the IDs known here are offered, and
 * "Add" asks the tenant checker about the typed one, showing its answer under the field.
 */
export function ServerIdField({ label, value, onChange, error }: ServerIdFieldProps) {
  const t = useT();
  const listId = useId();
  const [tenants, setTenants] = useState(knownTenants);
  const [result, setResult] = useState<{ outcome: TenantCheck['outcome']; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [formatError, setFormatError] = useState<string | undefined>();

  async function add() {
    const invalid = checkServerId(value);
    setFormatError(invalid ? t(invalid) : undefined);
    setResult(null);
    if (invalid) return;
    setBusy(true);
    try {
      const answer = await checkTenant(value.trim());
      if (answer.outcome === 'added') {
        setTenants(answer.tenants);
        setResult({ outcome: 'added', text: t('tenant.added') });
        showToast(t('tenant.added'), 'success');
      } else {
        setResult({ outcome: answer.outcome, text: answer.info });
      }
    } catch (failure) {
      showToast((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Field
        label={label}
        value={value}
        onChange={(next) => {
          setResult(null);
          setFormatError(undefined);
          onChange(next);
        }}
        error={error ?? formatError}
        name="tenantCode"
        list={listId}
        autoComplete="off"
        addon={
          <button
            type="button"
            className="button button-secondary button-addon"
            onClick={add}
            disabled={busy}
            data-testid="server-id-add"
          >
            {t('tenant.add')}
          </button>
        }
      />
      <datalist id={listId}>
        {tenants.map((code) => (
          <option key={code} value={code} />
        ))}
      </datalist>
      {result ? (
        <p
          className={result.outcome === 'invalid' ? 'field-error' : 'field-hint'}
          role={result.outcome === 'invalid' ? 'alert' : 'status'}
          data-testid="server-id-result"
          data-outcome={result.outcome}
        >
          {result.text}
        </p>
      ) : null}
    </>
  );
}
