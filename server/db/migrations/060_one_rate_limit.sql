-- Password throttling ('Mot de passe oublié' requests, refused links, reset mails per account) now
-- counts in rate_limits like the intake (server/services/rate-limit.ts): one way to count requests
-- over time, shared by every instance. Reset mails were counted from the audit log.
DROP TABLE password_requests;
