// What the register's list adds to each row beside the register's own columns, on both stores:
// the creator's and the assignee's names (none once the account is gone, or while nobody has it), how the request ended, and the follow-up
// in both directions, so that a follow-up and the request it replaces read as what they are.
import { describe, expect, it } from 'vitest';
import { ADA, at, HOUR, insert, NOW, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { listRegister } from './queries.server';

setUpRegisterDatabase();

const list = () => listRegister({}, { now: NOW, staffId: ADA });

describe('listRegister’s added columns', () => {
  it('names the creator, or none when the request has no creator left', async () => {
    await insert(
      row({ verificationId: 'by-ada', createdBy: ADA, createdAt: at(-HOUR) }),
      row({ verificationId: 'by-otto', createdBy: OTTO, createdAt: at(-2 * HOUR) }),
      row({ verificationId: 'by-nobody', createdBy: null, createdAt: at(-3 * HOUR) }),
    );
    expect((await list()).map((entry) => [entry.verificationId, entry.createdByName])).toEqual([
      ['by-ada', 'Ada Admin'],
      ['by-otto', 'Otto Operator'],
      ['by-nobody', null],
    ]);
  });

  it('names the assignee from the same query, or none while nobody has the request', async () => {
    await insert(
      row({ verificationId: 'to-otto', assignedTo: OTTO, assignedAt: at(-HOUR / 2), createdAt: at(-HOUR) }),
      row({ verificationId: 'to-ada', createdBy: OTTO, assignedTo: ADA, assignedAt: at(-HOUR / 2), createdAt: at(-2 * HOUR) }),
      row({ verificationId: 'free', createdAt: at(-3 * HOUR) }),
    );
    expect((await list()).map((entry) => [entry.verificationId, entry.createdByName, entry.assignedTo, entry.assigneeName])).toEqual([
      ['to-otto', 'Ada Admin', OTTO, 'Otto Operator'],
      ['to-ada', 'Otto Operator', ADA, 'Ada Admin'],
      ['free', 'Ada Admin', null, null],
    ]);
  });

  it('carries how a request ended: completion time, method and failure reason', async () => {
    await insert(
      row({ verificationId: 'done', status: 'completed', completedAt: at(-HOUR / 2), method: 'passport' }),
      row({ verificationId: 'failed', status: 'failed', method: 'id_card', failureReason: 'document_expired', createdAt: at(-2 * HOUR) }),
    );
    expect(await list()).toMatchObject([
      { verificationId: 'done', completedAt: at(-HOUR / 2), method: 'passport', failureReason: null },
      { verificationId: 'failed', completedAt: null, method: 'id_card', failureReason: 'document_expired' },
    ]);
  });

  it('says which request follows a row up (the newest), and which one a follow-up follows', async () => {
    await insert(row({ verificationId: 'first', status: 'expired', createdAt: at(-5 * HOUR) }));
    await insert(
      row({ verificationId: 'second', status: 'failed', followsVerificationId: 'first', createdAt: at(-3 * HOUR) }),
      row({ verificationId: 'alone', createdAt: at(-4 * HOUR) }),
    );
    await insert(row({ verificationId: 'third', followsVerificationId: 'second', createdAt: at(-HOUR) }));
    expect((await list()).map((entry) => [entry.verificationId, entry.followsVerificationId, entry.followedUpBy])).toEqual([
      ['third', 'second', null],
      ['second', 'first', 'third'],
      ['alone', null, null],
      ['first', null, 'second'],
    ]);
  });
});
