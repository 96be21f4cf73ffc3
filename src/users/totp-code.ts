import * as OTPAuth from 'otpauth';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30 s steps. */
const PERIOD_S = 30;

function totp(secret: string, email: string) {
  return new OTPAuth.TOTP({
    issuer: 'Paydesk',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function totpUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** A code from an app has six digits; anything else typed at the second step is a recovery code. */
export function isAppCode(code: string): boolean {
  return /^\d{6}$/.test(code.trim());
}

/**
 * The time step (Unix time / 30 s) the code belongs to, when it is the current step's or one either
 * side (a phone's clock a little off); undefined otherwise. The caller accepts each step once.
 */
export function matchingStep(secret: string, email: string, code: string, now: Date): number | undefined {
  if (!isAppCode(code)) return undefined;
  const delta = totp(secret, email).validate({ token: code.trim(), timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}
