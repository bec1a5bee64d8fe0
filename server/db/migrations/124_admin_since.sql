-- When each account last became an admin: the alerts raised before it are not its backlog (an
-- account promoted years after it was made would otherwise start with every past alert unread).
ALTER TABLE users ADD COLUMN admin_since timestamptz;
