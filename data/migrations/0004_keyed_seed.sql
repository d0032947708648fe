-- 0004: which random stream a match replays with, and room for a 128-bit seed.
--
-- prng 1: the engines' original splitmix64 seeded from the 64-bit seed column (every match
-- stored before this migration keeps it and replays exactly as it was played).
-- prng 2: the keyed BLAKE2b stream (rules/prng.py) seeded from a 128-bit secret seed, kept as
-- decimal text in seed_text (seed is 0 then); NULL for prng 1.
ALTER TABLE matches ADD COLUMN prng INTEGER NOT NULL DEFAULT 1;
ALTER TABLE matches ADD COLUMN seed_text TEXT;
