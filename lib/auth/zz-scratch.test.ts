import { it } from 'vitest';
import { closeDatabases } from '@/lib/db/connection';
import { resetEnv } from '@/lib/env';
import { getCliAuth, getAuth } from './auth';
import { createStaff, disableStaff } from './staff';
import { staffFromHeaders } from './session';

it('explore', async () => {
  process.env.DATA_DIR = 'memory://'; process.env.BETTER_AUTH_SECRET = 'x'.repeat(40);
  resetEnv();
  const t0 = Date.now();
  const auth = await getCliAuth();
  console.log('init ms', Date.now() - t0);
  const id = await createStaff(null, { name: 'A', email: 'a@example.com', role: 'admin', password: 'correct horse battery' });
  const id2 = await createStaff(null, { name: 'B', email: 'b@example.com', role: 'viewer', password: 'correct horse battery' });
  const ok = await auth.api.signInEmail({ body: { email: 'a@example.com', password: 'correct horse battery' }, asResponse: true });
  console.log(ok.status, [...ok.headers.entries()], await ok.text());
  for (const body of [{ email: 'zz@example.com', password: 'correct horse battery' }, { email: 'a@example.com', password: 'wrong horse battery' }]) {
    const r = await auth.api.signInEmail({ body, asResponse: true });
    console.log(r.status, [...r.headers.entries()], await r.text());
  }
  await disableStaff(id, id2);
  try {
    const r = await auth.api.signInEmail({ body: { email: 'b@example.com', password: 'correct horse battery' }, asResponse: true });
    console.log('disabled', r.status, [...r.headers.entries()], await r.text());
  } catch (e) { console.log('threw', e); }
  const cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
  console.log(await staffFromHeaders(new Headers({ cookie })));
  console.log(await staffFromHeaders(new Headers({ cookie: 'vdesk.session_token=garbage' })));
  console.log(await staffFromHeaders(new Headers()));
  const so = await auth.api.signOut({ headers: new Headers({ cookie }), asResponse: true });
  console.log(so.status, [...so.headers.entries()]);
  console.log(await auth.api.getSession({ headers: new Headers({ cookie }) }));
  await closeDatabases();
});
