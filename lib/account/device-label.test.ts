// The words a person recognises their device by, from real browsers' user agents.
import { describe, expect, it } from 'vitest';
import { USER_AGENTS } from '@/test/support/staff-sign-in';
import { deviceLabel } from './device-label';

describe('deviceLabel', () => {
  it('names the browser with its major version, and the system', () => {
    expect(deviceLabel(USER_AGENTS.chromeOnLinux)).toBe('Chrome 131 on Linux');
    expect(deviceLabel(USER_AGENTS.firefoxOnWindows)).toBe('Firefox 133 on Windows');
    expect(deviceLabel(USER_AGENTS.safariOnIphone)).toBe('Safari 18 on iOS');
  });

  it('says so when there is nothing to go by', () => {
    expect(deviceLabel(null)).toBe('Unknown browser');
    expect(deviceLabel('')).toBe('Unknown browser');
  });
});
