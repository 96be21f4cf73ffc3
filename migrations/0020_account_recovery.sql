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
