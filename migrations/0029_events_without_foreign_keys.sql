-- The outbox's rows no longer carry foreign keys to the invoice and the project they are about
-- (issue 37). Each was a row trigger per event (two lookups and two FOR KEY SHARE row locks per
-- invoice created, the project's row locked again by every batch in flight), about a tenth of the
-- create statement's time, for a guarantee the code already gives: `events` has one writer
-- (src/events, held by src/events/one-writer.test.ts), which writes an invoice's event in the same
-- statement or transaction as the invoice itself, from that invoice's own row; and nothing deletes
-- invoices or projects. The indexes stay (events_invoice_idx serves an invoice's history).
alter table events drop constraint events_invoice_id_fkey;
alter table events drop constraint events_project_id_fkey;
