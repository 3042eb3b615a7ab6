// Detail page of one verification: read from the service on every visit (the service is the
// source of truth), then kept current in the browser by VerificationDetails.
//
// The page never waits long for the service before it answers. A quick read (the usual case) is
// rendered in the first flush, exactly as if nothing streamed: no waiting state flashes by, and an
// unknown id still answers with the not-found page's 404. A read still under way after
// QUICK_READ_MS gives way to the frame with a waiting state, and the record (or the problem, at
// the read's deadline) streams in behind it.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { permanentRedirect } from 'next/navigation';
import { Suspense } from 'react';
import { WaitingForService } from '@/components/verifications/waiting-for-service';
import { requireStaff } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { readDeadlineMs } from '@/lib/verification-service';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { verificationPageTitle } from '@/lib/verifications/record/page-title.server';
import { readVerificationPage, type VerificationPageRead } from '@/lib/verifications/record/verification-page.server';
import { AwaitedVerificationRecord, VerificationRecordView } from './verification-record';

type Props = { params: Promise<{ id: string }> };

/** The tab names the person, so that several open requests can be told apart. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: await verificationPageTitle(id) };
}

/** Below what reads as a wait, and far below the second the frame may take at most. */
const QUICK_READ_MS = 300;

export default async function VerificationPage({ params }: Props) {
  const { id } = await params;
  // One address per request (an uppercased UUID, spaces pasted along): read, audited and
  // registered under one id. The redirect tells nothing about the record.
  const canonical = canonicalVerificationId(id);
  if (canonical !== id && canonical !== '') permanentRedirect(`/verifications/${encodeURIComponent(canonical)}`);
  // Before anything is read or sent: a visitor without the right is never shown even the frame.
  const staff = await requireStaff('verification:read', `/verifications/${encodeURIComponent(id)}`);

  const read = readVerificationPage(id, staff);
  // A refresh or a form action's re-render of this very page (a live event, the name review)
  // replaces what is on screen: it waits for the read and keeps the shape of a quick first render.
  // Had it switched to the streamed shape below, the page would be mounted anew and the review
  // form would drop its answer and what was typed. The current page stays on screen meanwhile.
  if (await rendersAgainInPlace(id)) return <VerificationRecordView id={id} staff={staff} read={await read} />;

  const quick = await settledWithin(read, QUICK_READ_MS);
  // No boundary around a quick read: React may stream a large ready boundary behind a script,
  // which a browser without JavaScript never runs.
  if (quick) return <VerificationRecordView id={id} staff={staff} read={quick} />;

  const giveUpAfterSeconds = Math.ceil(readDeadlineMs(getEnv().VERIFICATION_API_TIMEOUT_MS) / 1000);
  return (
    <Suspense fallback={<WaitingForService id={id} giveUpAfterSeconds={giveUpAfterSeconds} />}>
      <AwaitedVerificationRecord id={id} staff={staff} read={read} />
    </Suspense>
  );
}

/**
 * Whether the browser asks to render again the page it already shows for this id: a router
 * refresh or an action sends the router's current tree, which then holds this id. A document
 * load, or a client navigation from another page, does not.
 */
async function rendersAgainInPlace(id: string): Promise<boolean> {
  const requestHeaders = await headers();
  if (requestHeaders.get('rsc') !== '1' && !requestHeaders.has('next-action')) return false;
  const tree = requestHeaders.get('next-router-state-tree');
  if (!tree) return false;
  try {
    const decoded = decodeURIComponent(tree);
    return decoded.includes('"verifications"') && decoded.includes(JSON.stringify(id));
  } catch {
    return false; // Not the router's encoding: render as for a first visit.
  }
}

/** The read's outcome if it settles within `ms`, else undefined (the read goes on regardless). */
async function settledWithin(read: Promise<VerificationPageRead>, ms: number): Promise<VerificationPageRead | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}
