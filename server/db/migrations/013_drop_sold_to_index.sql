-- Previous buyers are read from exports.for_customer (every sale records its export): an index on
-- leads.sold_to only made each sold lead's UPDATE heavier.
DROP INDEX IF EXISTS leads_sold_to_idx;
