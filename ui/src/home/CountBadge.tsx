/** A red count pill; nothing when the count is zero. */
export function CountBadge({ count, label, testId }: { count: number; label: string; testId?: string }) {
  if (!count) return null;
  return (
    <span className="badge" aria-label={label} data-testid={testId}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
