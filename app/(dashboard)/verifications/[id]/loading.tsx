export default function LoadingVerification() {
  return (
    <div className="animate-pulse space-y-4" aria-busy="true" aria-live="polite">
      <span className="sr-only">Loading the verification…</span>
      <div className="h-8 w-64 rounded bg-slate-200" />
      <div className="h-4 w-96 rounded bg-slate-200" />
      <div className="h-72 rounded-lg bg-white ring-1 ring-slate-200" />
    </div>
  );
}
