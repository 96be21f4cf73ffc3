-- What the payer is paying for, in the merchant's words (issue 33): shown on the payment page under
-- the merchant's name and the order id. Optional; the API refuses more than 500 characters and
-- control characters, and the column holds the same bound.
alter table invoices
  add column description text check (char_length(description) <= 500);
