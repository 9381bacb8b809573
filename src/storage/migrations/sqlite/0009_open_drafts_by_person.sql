-- open drafts by person
--
-- Every new summary cancels its person's other drafts in the chat; drafts are few at any
-- moment, while a regular's history grows without end.
CREATE INDEX purchase_intents_open_drafts
  ON purchase_intents (requester_user_id, requester_chat_id) WHERE status = 'draft';
