-- The duplicate check of every intake and import looks for the landing's leads of the last 30
-- days with the same phone or email. Through leads_list_idx it read every lead of those 30 days:
-- 17,000 index entries at 1,000,000 leads, 170,000 at 10,000,000, under the landing's lock, so
-- the intake's answer grew with the table. These find the few leads of one person directly.
CREATE INDEX leads_phone_idx ON leads (landing_id, phone, created_at) WHERE phone IS NOT NULL;
CREATE INDEX leads_email_idx ON leads (landing_id, email, created_at) WHERE email IS NOT NULL;
