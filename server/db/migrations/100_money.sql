-- Money (issue 26): integer cents of euros, HT. A sale's price is fixed when it happens
-- (lead_sales.price_cents); changing a price later never changes a past sale.

-- A customer's default price (a rule without its own price, an export to it), its monthly budget
-- (null: none; sales minus credits of a Paris calendar month never pass it), how many days it may
-- return a lead after the sale (0: no returns) and the share of a month's sales it may return
-- (percent, null: no limit).
ALTER TABLE customers
  ADD COLUMN default_price_cents  integer NOT NULL DEFAULT 0 CHECK (default_price_cents BETWEEN 0 AND 100000000),
  ADD COLUMN monthly_budget_cents bigint CHECK (monthly_budget_cents BETWEEN 0 AND 100000000000),
  ADD COLUMN return_days          smallint NOT NULL DEFAULT 7 CHECK (return_days BETWEEN 0 AND 365),
  ADD COLUMN max_return_rate      numeric(5, 2) CHECK (max_return_rate BETWEEN 0 AND 100);

-- A rule's price (null: its customer's default price).
ALTER TABLE rules ADD COLUMN price_cents integer CHECK (price_cents BETWEEN 0 AND 100000000);

-- The price an export to a named customer was sold at (null: not sold to a customer).
ALTER TABLE exports ADD COLUMN price_cents integer CHECK (price_cents BETWEEN 0 AND 100000000);

-- Why a sale was returned: the customer's reason, or 'reinjected' when an admin took an export's
-- leads back. The credit is its price, on the statement of the return's month.
ALTER TABLE lead_sales
  ADD COLUMN return_reason  text CHECK (return_reason IN ('wrong_number', 'unreachable', 'duplicate', 'out_of_area', 'already_customer', 'other', 'reinjected')),
  ADD COLUMN return_comment text CHECK (length(return_comment) <= 1000);
UPDATE lead_sales SET return_reason = 'reinjected' WHERE returned_at IS NOT NULL;
ALTER TABLE lead_sales ADD CONSTRAINT lead_sales_return_reason_ck CHECK ((returned_at IS NULL) = (return_reason IS NULL));
CREATE INDEX lead_sales_customer_sold_idx ON lead_sales (customer_id, sold_at);
CREATE INDEX lead_sales_customer_returned_idx ON lead_sales (customer_id, returned_at) WHERE returned_at IS NOT NULL;

-- A customer's month (Paris calendar): what it was sold and credited, bumped in the transaction of
-- each sale and each return, so the budget claim is one conditional upsert, exact under any
-- concurrency and on any number of instances (as rule_windows are for caps).
CREATE TABLE customer_months (
  customer_id   integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  month         date NOT NULL,
  sales         integer NOT NULL DEFAULT 0,
  sold_cents    bigint NOT NULL DEFAULT 0,
  returns       integer NOT NULL DEFAULT 0,
  credits_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (customer_id, month)
);

-- Started from the sales already recorded (their prices are 0 until now).
INSERT INTO customer_months (customer_id, month, sales, sold_cents, returns, credits_cents)
SELECT customer_id, (date_trunc('month', sold_at AT TIME ZONE 'Europe/Paris'))::date, count(*), sum(price_cents),
       count(*) FILTER (WHERE returned_at IS NOT NULL), sum(price_cents) FILTER (WHERE returned_at IS NOT NULL)
  FROM lead_sales
 GROUP BY 1, 2;
