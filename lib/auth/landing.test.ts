// Who starts where after signing in: case workers on the queue, readers on the register.
import { describe, expect, it } from 'vitest';
import { HOME_PATH, landingPathFor } from './landing';
import { safeReturnPath } from './request-info';

describe('landingPathFor', () => {
  it('starts operators and administrators on the queue, and viewers on the register', () => {
    expect(landingPathFor('operator')).toBe('/queue');
    expect(landingPathFor('admin')).toBe('/queue');
    expect(landingPathFor('viewer')).toBe('/');
  });

  it('is where a sign-in without a destination goes, while an explicit "/" still means the register', () => {
    expect(safeReturnPath(undefined)).toBe(HOME_PATH);
    expect(safeReturnPath('/')).toBe('/');
  });
});
