-- purchases by when they finished, for the ones out during a balance measurement
--
-- Which other purchases were out while a balance was measured (the cost meter, the admins'
-- evidence) is asked on every delivered purchase. By `sent_at` alone that read every
-- purchase ever sent before the window; by when each finished it reads only the few that
-- overlap it, and those still unfinished (NULL), which are few.
CREATE INDEX purchase_intents_finished ON purchase_intents (finished_at, sent_at);
