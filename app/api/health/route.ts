// Liveness: the process answers. No authentication and no details, so it can be polled by anyone.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
