// Asks the server whether this session may still create requests each time the page's tab is
// shown again (lib/verifications/create/actions.ts), so that staff returning to a
// half-filled form learn at once that it would be refused, rather than when they submit it.
import { useEffect, useState } from 'react';
import { type CreateAccess, checkCreateAccessAction } from '@/lib/verifications/create/actions';

/** The refusal to show, or undefined while the session may create (or nothing could be asked). */
export function useCreateAccessCheck(): Extract<CreateAccess, { allowed: false }> | undefined {
  const [access, setAccess] = useState<CreateAccess>();
  useEffect(() => {
    // Only the newest answer counts: an older one may describe a session since renewed.
    let asked = 0;
    let active = true;
    const check = () => {
      if (document.visibilityState !== 'visible') return;
      const question = ++asked;
      checkCreateAccessAction().then(
        (answer) => {
          if (active && question === asked) setAccess(answer);
        },
        // Offline or the server restarting: say nothing; the submission will tell.
        () => undefined,
      );
    };
    document.addEventListener('visibilitychange', check);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', check);
    };
  }, []);
  return access?.allowed === false ? access : undefined;
}
