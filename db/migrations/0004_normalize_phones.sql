-- Phone login removes spaces, dashes, dots and parentheses from the number it is given and
-- compares it exactly (an indexable equality) with the stored one; the admin user form stored
-- numbers as typed ('+1 555-0100'), which then never matched. It now stores them without
-- separators, and so do the numbers stored before.
UPDATE "users" SET "phone" = regexp_replace("phone", '[[:space:]().-]', '', 'g') WHERE "phone" ~ '[[:space:]().-]';
