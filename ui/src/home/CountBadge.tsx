/** A red count pill (grey when muted); nothing when the count is zero. */
export function CountBadge({
  count,
  label,
  testId,
  muted = false,
}: {
  count: number;
  label: string;
  testId?: string;
  muted?: boolean;
}) {
  if (!count) return null;
  return (
    <span className={muted ? 'badge badge-muted' : 'badge'} aria-label={label} data-testid={testId}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
