-- Where a landing page's plain HTML form goes after posting to the intake (issue 24, item 7):
-- an http(s) URL, or NULL (the intake answers JSON, as to script callers).
ALTER TABLE landings ADD COLUMN thank_you_url text;
