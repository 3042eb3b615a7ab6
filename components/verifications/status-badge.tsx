// The status of a verification as a coloured badge with a word (never colour alone).
import { Ban, CircleCheck, CircleDashed, CircleX, Clock3 } from '@/components/ui/icons';
import { cn } from '@/lib/utils';
import { statusLabel } from '@/lib/verifications/labels';

const styles: Record<string, { className: string; icon: typeof Clock3 }> = {
  pending: { className: 'bg-amber-50 text-amber-900 ring-amber-300', icon: Clock3 },
  completed: { className: 'bg-emerald-50 text-emerald-900 ring-emerald-300', icon: CircleCheck },
  failed: { className: 'bg-red-50 text-red-900 ring-red-300', icon: CircleX },
  expired: { className: 'bg-slate-100 text-slate-800 ring-slate-300', icon: CircleDashed },
  // The register's word for a request past its kept_until (lib/verifications/register/purged.ts).
  purged: { className: 'bg-white text-slate-800 ring-slate-400', icon: Ban },
};

/**
 * `label` is the status in the reader's language (common's status words); without it the badge
 * falls back to the English label, for the pages that do not hand one down yet.
 */
export function StatusBadge({ status, label, size = 'sm' }: { status: string; label?: string; size?: 'sm' | 'lg' }) {
  const style = styles[status] ?? { className: 'bg-slate-100 text-slate-800 ring-slate-300', icon: CircleDashed };
  const Icon = style.icon;
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex items-center gap-1 rounded-full font-medium ring-1 ring-inset',
        size === 'lg' ? 'px-3 py-1 text-sm' : 'px-2 py-0.5 text-xs',
        style.className,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {label ?? statusLabel(status)}
    </span>
  );
}
