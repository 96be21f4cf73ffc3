-- Account recovery and second factors (issue 33).

-- Two-factor recovery codes: ten made when two-factor is turned on (and again on request), each good
-- for one sign-in in place of a code from the app. Only the SHA-256 of a code is kept; a used code
-- keeps its row (used_at), so the account page can say how many are left.
create table dashboard_recovery_codes (
  user_id     text not null references dashboard_users (id),
  code_hash   bytea not null,
  used_at     timestamptz,
  created_at  timestamptz not null,
  primary key (user_id, code_hash)
);

-- The RFC 6238 time step (Unix time / 30 s) of the last code from the app that was accepted: a code
-- is accepted once, and never one older than the last (RFC 6238 §5.2), so a code seen over a shoulder
-- or caught by a phishing page cannot be used again within its window.
alter table dashboard_users add column totp_last_step integer;

-- totp_secret and totp_pending now hold the secret sealed with AES-256-GCM under PAYDESK_ENCRYPTION_KEY
-- ("sealed:v1:…", src/secrets/seal.ts). Secrets stored in clear by earlier versions are sealed at the
-- next start (src/users/totp-secret.ts): that needs the key, which SQL does not have.
