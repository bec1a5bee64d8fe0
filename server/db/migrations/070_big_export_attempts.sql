-- A custom export whose server died while it ran is started again (issue 19, faults): the
-- attempts made, so that one that kills its server every time is given up after a few.
ALTER TABLE big_exports ADD COLUMN attempts integer NOT NULL DEFAULT 0;
