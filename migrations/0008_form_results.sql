-- Dashboard forms are POST, redirect, GET (contract §17). Each form carries a one-time token; the first
-- POST with it claims this row, and `location` remembers where its redirect led, so a second POST of
-- the same form (a double click, the back button, "Resubmit form") is sent to the same result page
-- instead of repeating the action. A secret made by the action (an API key, a signing secret, an
-- invite link) waits here, sealed with a key only the session's cookie can give, until the result
-- page shows it once and clears it.
create table dashboard_form_results (
  session_hash   bytea not null references dashboard_sessions (token_hash) on delete cascade,
  once           text not null,
  location       text,
  sealed_secret  bytea,
  created_at     timestamptz not null,
  primary key (session_hash, once)
);
