-- Taboola buys where leads sell (issue 27): the landings a campaign feeds, an admin setting kept
-- by the console (Backstage knows nothing of landings), for the sandbox's campaigns and
-- Backstage's alike. 'Cibler les zones couvertes' targets the departments open for them.
CREATE TABLE taboola_campaign_landings (
  account_id  text NOT NULL,
  campaign_id text NOT NULL,
  landing_ids integer[] NOT NULL DEFAULT '{}',
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, campaign_id)
);
