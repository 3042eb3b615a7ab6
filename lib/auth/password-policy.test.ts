import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy';

describe('passwordProblem', () => {
  it('refuses passwords from the list of common ones, whatever their case', () => {
    expect(passwordProblem('password1234')).toMatch(/most common/);
    expect(passwordProblem('PASSWORD1234')).toMatch(/most common/);
    expect(passwordProblem('qwertyuiop123')).toMatch(/most common/);
  });

  it('refuses fewer than 12 characters, naming the rule', () => {
    expect(passwordProblem('short pass1')).toBe('Use at least 12 characters.');
  });

  it('accepts a long, uncommon password without any composition rule', () => {
    expect(passwordProblem('lantern orbit cactus')).toBeNull();
    expect(passwordProblem('alllowercaseletters')).toBeNull();
  });
});
