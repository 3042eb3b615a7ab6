import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, singleSignOnFormTargets } from './content-security-policy';

const formAction = (csp: string) => csp.split('; ').find((directive) => directive.startsWith('form-action'));

describe('form-action and single sign-on', () => {
  it('lets forms post only home without single sign-on', () => {
    expect(singleSignOnFormTargets({})).toEqual([]);
    expect(formAction(contentSecurityPolicy('n', { dev: false, formTargets: singleSignOnFormTargets({}) }))).toBe("form-action 'self'");
  });

  it("adds the provider's origin (not its path) when OIDC_ISSUER is set", () => {
    const targets = singleSignOnFormTargets({ OIDC_ISSUER: 'https://login.example.com/tenant/v2.0' });
    expect(targets).toEqual(['https://login.example.com']);
    expect(formAction(contentSecurityPolicy('n', { dev: false, formTargets: targets }))).toBe(
      "form-action 'self' https://login.example.com",
    );
  });

  it('adds nothing for a value that is not an http(s) URL', () => {
    expect(singleSignOnFormTargets({ OIDC_ISSUER: 'not a url' })).toEqual([]);
    expect(singleSignOnFormTargets({ OIDC_ISSUER: "javascript:alert('x')" })).toEqual([]);
    expect(singleSignOnFormTargets({ OIDC_ISSUER: ' ' })).toEqual([]);
  });
});
