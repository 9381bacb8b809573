# giftbot: English. Every key here must also exist in ru.ftl (a test checks it).

## Command list (setMyCommands)
command-start = Main menu
command-stars = Gift Telegram Stars
command-premium = Gift Telegram Premium
command-history = Your gifts and their status
command-language = Change the language
command-cancel = Cancel what you are doing
command-help = How this bot works

## The gift's one name, used in every text that names a gift (summary, outcome, history, admins)
gift-stars = { $amount } Telegram Stars
gift-premium = Telegram Premium for { $months ->
        [one] { $months } month
       *[other] { $months } months
    }

## Start and help
start-greeting = Hi, { $name }! I can gift Telegram Stars or Telegram Premium to anyone with a @username. What would you like to do?
button-gift-stars = ⭐ Gift stars
button-gift-premium = 💎 Gift premium
help-text =
    I gift Telegram Stars and Telegram Premium to a @username.

    /stars: gift stars (from { $min } to { $max })
    /premium: gift Premium for 3, 6 or 12 months
    /history: your gifts and their status
    /language: English or Russian
    /cancel: stop at any step

    You will see a summary before anything is bought, and nothing is bought until you press Confirm.
help-admin =
    As an admin you also have:
    /balance: the wallet, today's purchases and whether buying is open
    /purchases: recent purchases; /purchases <id>: one in detail
    /pending: purchases with an unknown outcome, to settle
    /pause and /resume: stop and reopen all purchases
    /allow and /deny: let a person buy, or stop them (a user id, or reply to a message forwarded from them)
    /allowed: who may buy
    /limits: the spending limits and today's use
    /export: the purchases of a date range as a CSV file (/export 2026-11-01 2026-11-30; none: this month so far)
    /backup: back the database up now (the file stays on the server)
    /giveaway: a gift for each person on a list (a message or a .txt/.csv file), checked before you confirm
    /dashboard: the admin app: the spending, every purchase and the decisions, in one place
    /allowchat and /denychat (sent inside a group): let that group's administrators gift Premium, or stop them
    /topup and /refund: add Telegram Stars to the bot's own balance (Premium through Telegram), or give a top-up back

## Language
language-choose = Choose your language:
language-changed = From now on I will speak English.
language-name-en = English
language-name-ru = Русский

## Cancel
button-cancel = ✖️ Cancel
cancel-done = Cancelled. Nothing was bought.
cancel-nothing = There is nothing to cancel.

## History
history-empty = You have not sent any gifts yet. Try /stars or /premium.
history-title = Your recent gifts:
history-item = { $date }: { $gift } to @{ $recipient }: { $status }
status-draft = not confirmed
status-queued = confirmed, waiting for its turn
status-sending = being sent
status-succeeded = delivered
status-rejected = refused, nothing spent
status-unconfirmed = outcome unknown, the admins are checking
status-delivered = delivered (checked by the admins)
status-not_delivered = not delivered (checked by the admins)
status-cancelled = cancelled
status-expired = expired

## Flows: recipient
flow-ask-recipient-stars = Who should get the stars? Send their @username or a t.me link.
flow-ask-recipient-premium = Who should get Telegram Premium? Send their @username or a t.me link.
flow-recipient-invalid = That does not look like a username. A username has 4 to 32 letters, digits or underscores and starts with a letter. Please send it again.
flow-recipient-not-found = I could not find @{ $username }. Check the spelling and send the username again, or /cancel.
flow-recipient-refused = I could not check @{ $username } just now. Send the username again, or try another one (/cancel stops).
flow-recipient-rate-limited = The service is busy. Please wait { $seconds } s, then send the username again.
flow-recipient-unavailable = The service is not answering right now. Please send the username again in a minute.
flow-recipient-throttled = You are checking recipients too fast. Please slow down: send the username again in { $seconds } s.
flow-recipient-superseded = You asked about another recipient meanwhile, so this check was dropped. Send @{ $username } again to check it.
flow-recipient-has-premium = @{ $username } already has Telegram Premium, so it cannot be gifted to them now. Send another username, or /cancel.
flow-expect-text = Please send the username as a text message, or /cancel.

## Flows: amount and duration
flow-ask-amount = How many stars for @{ $username }? Up to { $max } in one gift.
flow-ask-amount-today = How many stars for @{ $username }? { $max ->
        [one] { $max } star
       *[other] { $max } stars
    } left today.
button-amount = ⭐ { $amount }
button-amount-other = Another amount
flow-ask-amount-custom = Send the number of stars: a whole number from { $min } to { $max }.
flow-amount-invalid = That is not a whole number from { $min } to { $max }. Please send the number of stars again.
flow-ask-duration = How long should @{ $username } get Telegram Premium?
button-duration = { $months ->
        [one] { $months } month
       *[other] { $months } months
    }
flow-expect-button = Please choose with the buttons above, or /cancel.
flow-button-inactive = This button is no longer active.
flow-paused = ⏸ Purchases are paused by the admins for now, so nothing can be bought. Please try again later.
flow-notice-paused-breaker = ⏸ Purchases are paused for now: the service refused the last purchases and the admins have been told. You can still prepare a gift; Confirm works again once they reopen purchases.
flow-notice-frozen = ⏸ Purchases are on hold while the admins check an earlier gift. You can still prepare a gift; Confirm works again once they are done.
flow-limit-reached = Nothing more can be gifted today under the limit "{ $limit }": { $left } of { $max } left, less than the smallest gift. It resets on { $resetsAt }.

## Summary
summary-title = Please check your gift:
summary-recipient = Recipient: @{ $username }
summary-gift = Gift: { $gift }
summary-method = Payment: { $method }
summary-balance = Wallet balance: { $ton } TON, { $usdt } USDT
summary-balance-unknown = Wallet balance: not available right now
summary-wallet-short = ⚠️ The shop's wallet cannot pay for this gift right now, so Confirm would most likely be refused (nothing would be spent). Try a smaller gift, or try again later.
summary-confirm-hint = Nothing is bought until you press Confirm.
method-ton = TON
method-usdt_ton = USDT on TON
button-confirm = ✅ Confirm
button-switch-method = Pay with { $method }
summary-method-changed = Payment method changed.
summary-paused = ⏸ Purchases are paused by the admins for now: Confirm works again once they reopen them.
summary-paused-breaker = ⏸ Purchases are paused for now (the service refused the last purchases; the admins have been told): Confirm works again once they reopen them.
summary-frozen = ⏸ Purchases are on hold while the admins check an earlier gift: Confirm works again once they are done.
purchases-reopened = ▶ Purchases are open again: you can gift now.
purchases-reopened-summary = ▶ Purchases are open again: you can gift now. A summary you kept can be confirmed.
summary-sending = ⏳ Sending your gift…
flow-queued = ⏳ The service is busy right now: I will answer in about { $seconds } s.
summary-queued = ⏳ The service is busy: your gift is queued and will be sent in about { $seconds } s.
unknown-value = ?

## Outcomes
outcome-delivered = ✅ Delivered: { $gift } to @{ $username }.
outcome-transaction = Transaction: { $url }
outcome-transaction-hash = Transaction: { $hash }
outcome-rejected-recipient = ❌ @{ $username } cannot receive this gift: the account was not found or does not take gifts. Nothing was spent. Check the username and try again.
outcome-rejected-premium = ❌ @{ $username } already has Telegram Premium, so it cannot be gifted now. Nothing was spent.
outcome-rejected-amount = ❌ This gift was not accepted as it is (its amount, duration or payment method). Nothing was spent. Try another amount or duration.
outcome-rejected-limit = ❌ This gift is over what can be bought right now. Nothing was spent. Try a smaller gift, or try again later.
outcome-rejected-setup = ❌ The shop cannot buy gifts right now, and the admins have been told. Nothing was spent. Please try again later.
outcome-rejected-unknown = ❌ The purchase was refused. Nothing was spent. Please try again later.
outcome-not-sent = ❌ Not sent: the request did not go out to the service. Nothing was spent; you can try again.
outcome-closed = ❌ Not sent: { $reason } Nothing was spent.
outcome-unknown = ⚠️ The outcome is unknown. Do not try again: the admins are checking and will settle it.
outcome-unknown-wait = The service also asked to wait { $seconds } s before any new request.
outcome-has-premium = @{ $username } already has Telegram Premium. Nothing was bought.
outcome-cancelled = Cancelled. Nothing was bought.
outcome-refused = Nothing was bought: { $reason }

## Why a button press did nothing
refusal-not_found = this summary is unknown.
refusal-not_owner = this summary is not yours.
refusal-already_processing = this gift is already being sent.
refusal-already_done = this gift has already been handled.
refusal-cancelled = this summary was cancelled.
refusal-expired = this summary has expired. Start again with /stars or /premium.
refusal-paused = purchases are paused by the admins for now.
refusal-frozen = purchases are on hold while the admins check an earlier gift.
refusal-busy = another gift is being sent right now. Press Confirm again in a moment.
refusal-recipient_unverified = the recipient could not be checked again just now. Press Confirm again in a moment.
refusal-recipient_premium_unknown = the service could not say whether the recipient already has Premium, so nothing was bought. Try again later.
refusal-no_access = you may no longer buy gifts here.
refusal-storage = the bot could not record your confirmation just now. Nothing was bought; please try again in a minute.
refusal-stopping = the bot is restarting; press Confirm again in a minute.
refusal-limit = this gift is more than is left today under the limit "{ $limit }": { $left } of { $max } left. It resets on { $resetsAt }.
refusal-limit-per-purchase = one purchase can be at most { $max ->
        [one] { $max } star
       *[other] { $max } stars
    }.
refusal-limit-group = the limit "{ $limit }" is reached. It resets on { $resetsAt }.
limit-stars_per_purchase = stars in one purchase
limit-stars_per_user_day = your stars per day
limit-stars_per_bot_day = stars per day for everyone
limit-premium_per_user_day = your Premium gifts per day
limit-premium_per_bot_day = Premium gifts per day for everyone

## Access and errors
callback-invalid = This button is not valid.
purchase-not-allowed = Purchases are not open to you. Please ask the bot's admins for access.
error-generic = Sorry, something went wrong on my side. Please try again.
fallback-not-understood = I did not understand: start with /stars or /premium, or see /help.

# ---- Admins, access and groups (issue 5; the "admin" helper's section) ----

## Who may buy
access-denied = Purchases are not open to you. To get access, ask the bot's admins and give them your user id: { $userId }.
access-denied-contact = Purchases are not open to you. To get access, ask { $contact } and give them your user id: { $userId }.
stranger-answered-recently = I answered you a moment ago: see my message above. I will answer again in { $seconds } s.
flood-slow-down = You are sending messages too fast. Please slow down: for up to { $seconds } s I will not answer.
access-group-premium-only = In groups I can gift only Telegram Premium, with /premium.
access-group-not-allowed = Gifting is not enabled in this group. A bot admin can enable it with /allowchat.
access-group-admins-only = Gifting Premium here is for the group's administrators.
access-group-check-failed = I could not check your administrator rights just now. Please try again.

## Group premium gifting
group-help = In this group, the group's administrators can gift Telegram Premium to a member: reply to their message with /premium, or write /premium @username (/cancel stops it). Stars, /history and everything else work in a private chat with me: @{ $bot }.
group-help-off = Gifting is not enabled in this group; a bot admin can enable it with /allowchat. Stars and Premium can be gifted in a private chat with me: @{ $bot }.
group-answered-recently = I answered here a moment ago: see my message above. In a group I answer at most once every 30 s; ask again in { $seconds } s.
group-usage = Reply to a member's message with /premium, or write /premium @username.
group-limit-reached = Nothing more can be gifted today under the limit "{ $limit }". It resets on { $resetsAt }.
group-no-username = { $name } has no public @username, so I cannot gift them Premium. They can set a username in Telegram's settings.
group-recipient-not-found = I could not find @{ $username }.
group-recipient-has-premium = @{ $username } already has Telegram Premium.
group-recipient-busy = The service is busy. Try /premium again in { $seconds } s.
group-recipient-unavailable = I could not check @{ $username } right now. Try /premium again in a minute.
group-recipient-throttled = You are checking recipients too fast. Please slow down: try /premium again in { $seconds } s.
group-recipient-superseded = You asked about another recipient meanwhile, so the check of @{ $username } was dropped. Try /premium again.
group-ask-duration = Telegram Premium for @{ $username }: for how long?
group-not-yours = Only the administrator who started this gift can use these buttons.
group-flow-expired = This gift was started too long ago. Start again with /premium.

## Admin: names and purchases
admin-user = { $id }
admin-user-labelled = { $label } ({ $id })
admin-chat-private = a private chat
admin-chat-group = group { $chatId }
admin-intent-id = Purchase id: { $id }
admin-intent-requester = Asked by { $who } in { $chat }
admin-intent-sent = Sent: { $date }
admin-intent-detail = Detail: { $detail }

## Outcome details, for admins (the service's own words are quoted, never translated)
admin-unrecorded-title = ⚠️ A purchase's outcome could not be written to the database: { $gift } to @{ $recipient }.
admin-unrecorded-answer = The service answered: { $answer }
admin-unrecorded-hold = Purchases are on hold. The bot keeps trying to write it; once it can, the purchase comes to you as an unknown outcome to settle.
admin-storage-transient = ⚠️ The bot's database refused a purchase write ({ $operation }, { $code }) for several seconds: another program may hold its lock, or the disk may be full or failing. Nothing was sent for that confirmation and its person was told. The bot goes on and tries each write again.
admin-storage-permanent = ⚠️ The bot's database refuses writes ({ $operation }, { $code }) and will not recover by itself: the file may be read-only or damaged. Purchases cannot go on until it is mended: check the disk, the file's permissions and the bot's log.
detail-answer-success = delivered.
detail-interrupted = interrupted: the process stopped while the purchase request was in flight
detail-restored = restored from a backup: it was in flight or waiting in the backup, and whether it was sent after the backup was taken is unknown.
detail-unrecorded = the service answered ({ $outcome }), but the database could not record the answer at once; check it against the evidence.
detail-late-answer = an answer ({ $outcome }) came after a restart had already marked this purchase unknown.
detail-late-settled = the service's answer ({ $outcome }) came after a restart had marked this purchase unknown, and settled it.
detail-not-sent-shutdown = not sent: cancelled at shutdown
detail-not-sent-cancelled = not sent: cancelled before sending
detail-not-sent-invalid = not sent: the bot's own check refused the { $field }
detail-not-sent-queued = not sent: the confirmation waited for its turn and { $reason }
detail-queued-paused = purchases were paused
detail-queued-frozen = an earlier purchase's outcome was unknown
detail-queued-limit = a spending limit was reached
detail-queued-no_access = the person was no longer allowed to buy
detail-queued-recipient_has_premium = the recipient already had Premium
detail-queued-other = it could no longer be sent
detail-cause-rate_limited = the service answered HTTP { $status } (busy): the purchase may or may not have happened
detail-cause-timeout = no answer in time: the purchase may or may not have happened
detail-cause-transport = the connection failed: the purchase may or may not have happened
detail-cause-malformed = the service's answer could not be read: the purchase may or may not have happened
detail-cause-unexpected_status = the service answered an unexpected HTTP { $status }: the purchase may or may not have happened
detail-cause-unconfirmed = the service marked the outcome unconfirmed
detail-refused = the service refused it (HTTP { $status }): "{ $reason }"
detail-refused-no-reason = the service refused it (HTTP { $status }) without a reason
detail-service-said = The service said: "{ $reason }".
detail-other = "{ $detail }"

## Admin: /balance
admin-balance-title = 💰 Wallet
admin-balance-ton = TON: { $ton }
admin-balance-usdt = USDT: { $usdt }
admin-balance-unavailable = Balance: the service is not answering right now.
admin-balance-rate-limited = Balance: the service is busy, try again in { $seconds } s.
admin-wallet-address = Address: { $address }
admin-wallet-address-unknown = Address: not known (set WALLET_ADDRESS)
admin-wallet-version = Wallet version: { $version }
admin-today = Today (UTC): { $count ->
        [one] one purchase
       *[other] { $count } purchases
    } sent; { $stars ->
        [one] { $stars } star
       *[other] { $stars } stars
    } and { $premium ->
        [one] { $premium } Premium gift
       *[other] { $premium } Premium gifts
    } counted against the limits
admin-state-open = Purchases: open
admin-state-paused = Purchases: ⏸ paused (/resume to reopen)
admin-state-frozen = Purchases: on hold, { $count ->
        [one] one unknown outcome
       *[other] { $count } unknown outcomes
    } to check (/pending)
admin-quota-title = 📡 Service quota
admin-quota-used = Used in the last window: { $used } of { $limit ->
        [one] { $limit } request
       *[other] { $limit } requests
    }
admin-quota-queued = Waiting: { $purchases ->
        [one] { $purchases } purchase
       *[other] { $purchases } purchases
    }, { $shared ->
        [one] { $shared } balance read
       *[other] { $shared } balance reads
    }, { $reads ->
        [one] { $reads } recipient check
       *[other] { $reads } recipient checks
    }
admin-quota-retry-wait = ⏳ Waiting after a 429/503 for another { $seconds } s
admin-quota-top = Most waiting (user: requests): { $owners }
admin-throttled-none = Nobody is being slowed down.
admin-throttled-checks = Slowed down, too many recipient checks (user until UTC): { $people }
admin-throttled-updates = Slowed down, too many messages (user until UTC): { $people }
admin-low-balance-ton = ⚠️ The wallet is running low on TON: { $value } TON (alert below { $threshold } TON).
admin-low-balance-usdt = ⚠️ The wallet is running low on USDT: { $value } USDT (alert below { $threshold } USDT).

## Admin: /purchases
admin-purchases-empty = No purchases yet.
admin-purchases-title = Recent purchases ({ $from }–{ $to }), newest first:
admin-purchase-line = { $number }. { $date }: { $gift } to @{ $recipient }, { $status }, by { $who }
admin-purchases-hint = Press a number to open that purchase. Any purchase by its id: /purchases <id>
button-admin-open = { $number }
button-admin-newer = ◀ Newer
button-admin-older = Older ▶
admin-purchase-not-found = There is no purchase with id { $id }.
admin-detail-title = Purchase { $id }
admin-detail-gift = Gift: { $gift } to @{ $recipient }
admin-detail-status = Status: { $status }
admin-detail-created = Created: { $date }
admin-detail-finished = Finished: { $date }
admin-detail-resolved = Settled by { $admin } on { $date }
admin-detail-resolved-late = Settled by the service's late answer on { $date }

## Admin: unknown outcomes and /pending
admin-unconfirmed-title = ⚠️ A purchase ended with an unknown outcome: { $gift } to @{ $recipient }.
admin-pending-title = ⏳ Unknown outcome: { $gift } to @{ $recipient }.
admin-evidence-balance-before = Balance before: { $ton } TON, { $usdt } USDT
admin-evidence-balance-now = Balance now: { $ton } TON, { $usdt } USDT
admin-evidence-balance-before-at = Balance before: { $ton } TON, { $usdt } USDT, read at { $date }
admin-evidence-balance-before-at-sent = Balance before: { $ton } TON, { $usdt } USDT, read at { $date } ({ $minutes } min before sending)
admin-evidence-balance-before-with-summary = Balance before: { $ton } TON, { $usdt } USDT, read with the summary, at or before { $date }
admin-evidence-balance-now-at = Balance now: { $ton } TON, { $usdt } USDT, read at { $date }
admin-evidence-sent-since = Other purchases sent since the "before" balance was read ({ $count }): part of the drop may be theirs.
admin-evidence-sent-since-line = • { $id }: { $gift } to @{ $recipient }, { $status }, sent { $date }
admin-evidence-sent-since-more = • and { $count } more (see /purchases)
admin-evidence-premium-yes = The recipient has Premium now: yes
admin-evidence-premium-no = The recipient has Premium now: no
admin-evidence-premium-unknown = The recipient has Premium now: unknown
admin-evidence-transfers = Outgoing transfers on chain since it was sent: { $count }
admin-evidence-transfer = • { $date }: { $amount } TON to { $destination } { $comment } { $url }
admin-evidence-no-chain = On-chain check: not configured (TON_API_ENDPOINT).
admin-evidence-hint = Check the wallet, then say what happened. Purchases stay on hold until every unknown outcome is settled.
admin-evidence-hint-stars = Check whether the recipient has Premium from this gift, then say what happened. Purchases stay on hold until every unknown outcome is settled.
button-admin-delivered = ✅ Delivered
button-admin-not-delivered = ❌ Not delivered
admin-resolved-delivered = Settled as delivered by { $admin }.
admin-resolved-not-delivered = Settled as not delivered by { $admin }.
admin-resolved-already = already settled: { $status }.
admin-resolve-left = { $count ->
        [one] One unknown outcome is
       *[other] { $count } unknown outcomes are
    } still waiting (/pending): purchases stay on hold.
admin-resolve-resumed = Every unknown outcome is settled: purchases resumed.
admin-resolve-resumed-paused = Every unknown outcome is settled, but purchases are paused: /resume to reopen them.
admin-pending-none = No purchases are waiting for a check.
admin-pending-count = { $count ->
        [one] One purchase is
       *[other] { $count } purchases are
    } waiting for a check:

## Admin: /pause and /resume
admin-paused = ⏸ Purchases are paused. Nobody can buy until /resume.
admin-resumed = ▶ Purchases are open again.
admin-resumed-frozen = ▶ The pause is lifted, but { $count ->
        [one] one unknown outcome still holds
       *[other] { $count } unknown outcomes still hold
    } purchases: settle them with /pending.

## Admin: the purchase breaker, read outages, settings reloads
admin-breaker-opened = ⛔ Purchases are paused by themselves: the service refused { $count ->
        [one] a purchase
       *[other] { $count } purchases in a row
    } for a reason that is not the buyer's input.
admin-breaker-refusals-earlier = • { $count ->
        [one] one earlier refusal
       *[other] { $count } earlier refusals
    } (see /purchases), then:
admin-breaker-refusal = • { $date }, purchase { $id }: "{ $reason }"
admin-breaker-cause-session =
    Most likely fix: the marketplace session has expired (or the account needs its verification again). Log in to the marketplace, put the new Cookie header in place and have the bot read it again (SIGHUP), no restart needed:
    • compose: write it over the file with sudo tee secrets/marketplace_cookie, then docker compose kill -s HUP bot
    • systemd: write it into /etc/giftbot/secrets/marketplace_cookie, then sudo systemctl reload giftbot
    • npm start: set MARKETPLACE_COOKIE in .env (or in the file MARKETPLACE_COOKIE_FILE names), then kill -HUP "$(pgrep -P <npm's pid>)"
    A file that MARKETPLACE_COOKIE_FILE names is also read again by itself within seconds. Then press Resume.
admin-breaker-cause-wallet = Most likely fix: the wallet cannot pay. Top up the wallet { $address }, then press Resume.
admin-breaker-cause-unknown = The bot does not recognise this reason. Check the reasons above and the service, and press Resume once it is fixed.
admin-breaker-hint = These purchases spent nothing. If the next purchase after Resume is refused the same way, purchases pause again.
button-admin-resume = ▶ Resume purchases
admin-breaker-resumed = ▶ Purchases reopened by { $admin }.
admin-breaker-resume-open = The breaker's pause is already lifted: purchases are open.
admin-breaker-resume-admin = Purchases are now paused by an admin, not by the breaker: /resume reopens them.
admin-state-paused-breaker = Purchases: ⛔ paused by themselves after refusals from the service (/resume to reopen)
admin-read-outage = ⚠️ The Gift Purchase Service has not answered recipient checks or balance reads for { $minutes } min ({ $failures } failed). Nobody can start a gift until it answers again.
admin-read-recovered = ✅ The Gift Purchase Service answers again (it was unreachable for { $minutes } min).
admin-reload-refused = ⚠️ Settings reloaded, but these new values are invalid and were not taken (the old ones stay): { $variables }. The bot's log says why.
refusal-paused-breaker = purchases are paused for now: the service refused the last purchases and the admins have been told. Nothing was spent.

## Admin: who may buy
admin-who-usage = Tell me who: /allow 123456789, or reply with /allow to a message forwarded from that person (/deny works the same way).
admin-who-hidden = { $name } hides their account in forwarded messages, so I cannot see who they are. Ask them for their user id (I show it to them when they try to buy), then send /allow with it.
admin-who-not-person = That message was forwarded from a chat or a channel, not from a person.
admin-forwarded = This message is from { $who }. May they buy?
button-admin-allow = ✅ Allow
button-admin-deny = 🚫 Deny
admin-allowed-user = ✅ { $who } may buy now.
admin-allow-admin = { $who } is an admin and may always buy.
admin-denied-user = { $who } may no longer buy.
admin-deny-configured = { $who } is allowed by ALLOWED_USER_IDS: remove them there and restart the bot.
admin-deny-not-listed = { $who } was not on the list.
admin-deny-admin = { $who } is an admin (ADMIN_IDS); that cannot be changed in the bot.
admin-deny-public = Note: PUBLIC_PURCHASES is on, so everyone may still buy.
admin-allowed-title = Who may buy
admin-allowed-admins = Admins: { $ids }
admin-allowed-public = Everyone may buy (PUBLIC_PURCHASES is on).
admin-allowed-users = { $count ->
        [one] One buyer:
       *[other] { $count } buyers:
    }
admin-allowed-users-none = Buyers: none yet. Add one with /allow.
admin-allowed-chats = { $count ->
        [one] One group whose administrators may gift Premium:
       *[other] { $count } groups whose administrators may gift Premium:
    }
admin-allowed-chats-none = Groups: none. Send /allowchat inside a group to add it.
admin-allowed-entry-config = • { $who }: from the settings
admin-allowed-entry-bot = • { $who }: added by { $admin } on { $date }
admin-chat-allowed = ✅ This group's administrators can now gift Telegram Premium with /premium.
admin-chat-denied = This group can no longer gift Premium.
admin-chat-deny-configured = This group is allowed by ALLOWED_CHAT_IDS: remove it there and restart the bot.
admin-chat-deny-not-listed = This group was not allowed.
admin-chat-only-in-group = Send this command inside the group you mean.

## Admin: /limits
admin-limits-title = Spending limits (today's use resets on { $resetsAt }):
admin-limit-stars-purchase = Stars in one purchase: up to { $max }
admin-limit-stars-user = Stars per person per day: up to { $max }
admin-limit-stars-bot = Stars per day for everyone: { $used } of { $max } used
admin-limit-premium-user = Premium gifts per person per day: up to { $max }
admin-limit-premium-bot = Premium gifts per day for everyone: { $used } of { $max } used
admin-limit-admins-exempt = Admins skip the per-person limits.
admin-limit-admins-not-exempt = Admins have the same per-person limits as everyone.

## Admin: command menus (setMyCommands)
command-balance = Wallet balance and today's purchases
command-purchases = Recent purchases, or one by id
command-pending = Purchases with an unknown outcome
command-pause = Pause all purchases
command-resume = Resume purchases
command-allow = Let a person buy
command-deny = Stop a person buying
command-allowed = Who may buy
command-limits = Spending limits and today's use
command-group-premium = Gift Telegram Premium to a member
command-export = Purchases of a date range as a CSV file
command-backup = Back up the database now
admin-backup-done = 💾 Backed up: { $path } ({ $size }). The file stays on the server: it holds people's ids and names.
admin-backup-failed = ❌ The backup into { $dir } failed: { $reason }
admin-backup-unavailable = This bot keeps its data in PostgreSQL: back it up with pg_dump or your database service's own backups.
admin-backup-failing = ⚠️ The database backup into { $dir } failed: { $reason }. The bot tries again every 15 minutes; purchases are not affected. You are told again only after a backup has worked.
admin-restored-title = ♻️ The database was restored from a backup taken { $taken }.
admin-restored-title-untimed = ♻️ The database was restored from a backup.
admin-restored-intro = The backup cannot know what was sent after it was taken, so nothing it shows as not sent yet is sent without a new decision:
admin-restored-batch = • Giveaway of { $gift } for each recipient, started { $started }: stopped for good; recipients not sent: { $unsent }. To send them, start a new giveaway.
admin-restored-summaries = • Open purchase summaries expired: { $count }. Their people start again.
admin-restored-unknown = • Purchases in flight or waiting, now of unknown outcome: { $count }. Each is sent to you to settle (/pending).
admin-restored-nothing = • Nothing was in flight, waiting or open in the backup.

# ---- What each gift cost (issue 13) ----

## The measured cost and the estimate
cost-line = cost: { $amount } { $currency }
cost-line-history = , cost: { $amount } { $currency }
cost-line-measuring = cost: being measured…
cost-detail = Cost: { $amount } { $currency } ({ $source })
cost-detail-unmeasured = Cost: not measured ({ $reason })
cost-source-balance_after = the wallet's balance read again after delivery
cost-source-later_balance = a later balance read, no other purchase in between
cost-source-on_chain = the outgoing transfer on chain
cost-unmeasured-other_purchase = another purchase went out at the same time
cost-unmeasured-balance_moved = the balance moved by more than this purchase
cost-unmeasured-no_reading_before = no balance was read just before it
cost-unmeasured-no_reading_after = no balance was read after it in time
summary-estimate = Estimated cost: about { $amount } { $currency } (from { $count ->
        [one] one recent purchase
       *[other] { $count } recent purchases
    })
# No purchase of this kind was measured yet: the service quotes no prices (docs/service-contract.md).
summary-estimate-unknown = Estimated cost: not known yet (prices are not quoted in advance; what a gift of this kind costs is measured when one is bought).
summary-estimate-exceeds = ⚠️ The estimate is more than the wallet holds in { $currency }: the service may refuse the purchase.

## Daily report
report-title = 📊 Daily report for { $day } (UTC)
report-purchases = { $count ->
        [one] One purchase sent
       *[other] { $count } purchases sent
    }
report-status-line = • { $status }: { $count }
report-bought = Bought: { $stars ->
        [one] { $stars } star
       *[other] { $stars } stars
    }, { $gifts ->
        [one] one Premium gift
       *[other] { $gifts } Premium gifts
    } ({ $months ->
        [one] { $months } month
       *[other] { $months } months
    })
report-spent = Spent: { $amount } { $currency } (measured on { $count ->
        [one] one purchase
       *[other] { $count } purchases
    })
report-spent-none = Spent: no measured costs
report-unmeasured = { $count ->
        [one] One delivered purchase has
       *[other] { $count } delivered purchases have
    } no measured cost (not in the sum above).
report-balance-start = Balance at the start of the day: { $ton } TON, { $usdt } USDT
report-balance-start-unknown = Balance at the start of the day: not known
report-balance-end = Balance at the end of the day: { $ton } TON, { $usdt } USDT
report-balance-end-unknown = Balance at the end of the day: not known
report-figure-unknown = ?
report-unconfirmed = ⚠️ Unknown outcomes waiting for a check now: { $count } (/pending)
report-unconfirmed-none = Unknown outcomes waiting for a check: none
report-limits = Daily limits used: { $stars } of { $starsMax ->
        [one] { $starsMax } star
       *[other] { $starsMax } stars
    }, { $premium } of { $premiumMax ->
        [one] { $premiumMax } Premium gift
       *[other] { $premiumMax } Premium gifts
    }
report-refusals = Refused by the service:
report-refusals-none = Refused by the service: none
report-refusal-line = • { $reason }: { $count }
report-refusal-no-reason = no reason given
report-breaker = Purchases paused by themselves after the service's refusals: { $count ->
    [0] never
    [one] once
   *[other] { $count } times
}

## /export
export-usage = Send /export for this month so far, or /export 2026-11-01 2026-11-30 for a range of days (UTC, both included).
export-bad-dates = I could not read those dates. Write them as YYYY-MM-DD, the first not after the second, for example /export 2026-11-01 2026-11-30.
export-caption = Purchases sent from { $from } to { $to } (UTC), one row each.
export-failed = The export could not be sent. Please try again.
export-failed-too-large = The file is too large for Telegram. Export a shorter range of days.
export-failed-permanent = The export could not be made, and trying again will not help until the cause is fixed: the bot's log says why.

## Giveaways (/giveaway, admins)
giveaway-ask-kind = 🎁 Giveaway: one gift for each person on a list. What does each recipient get?
giveaway-button-stars = ⭐ Stars
giveaway-button-premium = 💎 Premium
giveaway-ask-amount = How many stars for each recipient? Up to { $max } each.
giveaway-ask-duration = How long should each recipient get Telegram Premium?
giveaway-ask-recipients = Send the recipients: @usernames or t.me links, separated by spaces, commas or new lines. Or send them as a .txt or .csv file (a .csv: its "username" column, or else every cell; at most { $size }). At most { $max ->
        [one] one recipient
       *[other] { $max } recipients
    }.
giveaway-expect-list = Please send the recipients as a message or a .txt/.csv file (at most { $size }), or /cancel.
giveaway-file-not-a-list = That file is not a .txt or .csv list. Send the recipients as a message or a .txt/.csv file.
giveaway-file-too-large = That file is larger than { $size }. Send a shorter list.
giveaway-file-failed = The file could not be downloaded from Telegram. Please send it again.
giveaway-too-many = The list has { $count } recipients; a giveaway can have at most { $max }. Send a shorter list.
giveaway-no-recipients = There is no username on that list. Send @usernames or t.me links.
giveaway-list-read = { $count ->
        [one] One recipient read
       *[other] { $count } recipients read
    }{ $duplicates ->
        [0] {""}
        [one] {" "}(one name written twice, merged)
       *[other] {" "}({ $duplicates } names written more than once, merged)
    }. Checking them with the service…
giveaway-list-invalid = Not usernames, left out ({ $count }): { $names }
giveaway-checking = Checking { $done }/{ $total } { $bar }
giveaway-left-minutes = ~{ $minutes } { $minutes ->
        [one] minute
       *[other] minutes
    } left
giveaway-left-under-minute = less than a minute left
giveaway-button-stop = ⏹ Stop checking
giveaway-stopping = Stopping the checks…
giveaway-checks-stopped = Checks stopped at { $done }/{ $total }. Nothing was bought; send /giveaway to start again.
giveaway-checks-failed = The checks could not be finished. Nothing was bought; send /giveaway to try again.
giveaway-card-title = 🎁 Giveaway: { $gift } for each recipient
giveaway-card-can-receive = ✅ Can receive ({ $count }): { $names }
giveaway-card-has-premium = 💎 Already have Premium ({ $count }): { $names }
giveaway-card-not-found = ❓ Not found ({ $count }): { $names }
giveaway-card-unchecked = ⏳ Not checked, the service was busy ({ $count }): { $names }
giveaway-card-invalid = ✏️ Not usernames ({ $count }): { $names }
giveaway-card-more = and { $count } more
giveaway-card-nobody = Nobody on the list can receive this gift.
giveaway-card-total-stars = Total: { $count ->
        [one] one gift
       *[other] { $count } gifts
    }, { $stars ->
        [one] { $stars } star
       *[other] { $stars } stars
    }.
giveaway-card-total-premium = Total: { $count ->
        [one] one Premium gift
       *[other] { $count } Premium gifts
    }.
giveaway-card-estimate = Estimated cost: about { $amount } { $currency } (from { $count ->
        [one] one recent purchase
       *[other] { $count } recent purchases
    }).
giveaway-card-no-estimate = Estimated cost: not known yet (the service quotes no prices, and no recent purchase of this gift was measured: the first gift sent is measured from the wallet's balance before and after).
giveaway-card-balance = Wallet balance: { $amount } { $currency }.
giveaway-card-balance-unknown = Wallet balance: could not be read now.
giveaway-card-exceeds = ⚠️ The estimate is more than the wallet holds: the service may refuse the last gifts.
giveaway-card-room-stars = Today's limits leave { $left ->
        [one] { $left } star
       *[other] { $left } stars
    } (limit: { $limit }).
giveaway-card-room-premium = Today's limits leave { $left ->
        [one] one Premium gift
       *[other] { $left } Premium gifts
    } (limit: { $limit }).
giveaway-card-over-limit = ⚠️ Today's limits take only { $fit } of the { $count ->
        [one] one gift
       *[other] { $count } gifts
    }: the rest would be refused.
giveaway-card-same-as = ⚠️ The same gift to the same { $count ->
        [one] recipient
       *[other] { $count } recipients
    } was a giveaway already, started { $started }: { $delivered } delivered. Confirm only if this is meant as a second giveaway.
giveaway-button-confirm-again = ✅ Confirm a second giveaway
giveaway-button-csv = 📄 Download the list
giveaway-stale = This giveaway is no longer open. Send /giveaway to start again.
giveaway-not-yours = This giveaway is another admin's.
giveaway-cancelled = Giveaway cancelled. Nothing was bought.
command-giveaway = A gift for each person on a list
giveaway-sending-title = 🎁 Giveaway: { $gift } for each recipient
giveaway-sending-progress = Sent { $done }/{ $total } { $bar }
giveaway-sending-counts = ✅ Delivered: { $delivered } · ❌ Refused: { $refused } · ❓ Unknown: { $unknown }
giveaway-sending-counts-dropped = ✅ Delivered: { $delivered } · ❌ Refused: { $refused } · ❓ Unknown: { $unknown } · ✖️ Not sent: { $dropped }
giveaway-spent = 💸 Spent: { $amounts }
giveaway-spent-partly = 💸 Spent: { $amounts } ({ $unmeasured })
giveaway-spent-unknown = 💸 Spent: not measured ({ $unmeasured })
giveaway-spent-unmeasured = { $count ->
        [one] one gift has no measured cost
       *[other] { $count } gifts have no measured cost
    }
giveaway-state-running = ⏳ Sending, one recipient at a time; people's own gifts go first.
giveaway-state-paused = ⏸ Paused. Resume goes on from the next recipient.
giveaway-state-stopped-unknown_outcome = ⛔ Stopped: a purchase's outcome is unknown. Settle it with /pending, then press Resume.
giveaway-state-stopped-on_hold = ⛔ Stopped: purchases are on hold until an unknown outcome is settled (/pending). Then press Resume.
giveaway-state-stopped-purchases_paused = ⛔ Stopped: purchases are paused. Press Resume once they are resumed.
giveaway-state-stopped-limit = ⛔ Stopped: today's spending limit is reached. Press Resume after it resets (midnight UTC).
giveaway-state-stopped-storage = ⛔ Stopped: the bot's database refused a write. Press Resume to try again.
giveaway-state-stopped-service_unreachable = ⛔ Stopped: a Premium recipient could not be checked again (the service did not answer). Press Resume to try again.
giveaway-state-stopped-restored = ⛔ Stopped for good: the database was restored from a backup, which cannot know what was sent after it was taken. To send the rest, start a new giveaway.
giveaway-state-cancelled = ✖️ Cancelled: the rest was not sent.
giveaway-state-finished = ✅ Finished.
giveaway-button-pause = ⏸ Pause
giveaway-button-resume = ▶️ Resume
giveaway-button-cancel-rest = ✖️ Cancel the rest
giveaway-paused = Paused after the recipient being sent now.
giveaway-resumed = Going on from the next recipient.
giveaway-resume-closed = Purchases are paused or on hold: the giveaway goes on once they reopen. Press Resume then.
giveaway-resume-restored = This giveaway was stopped by a restore from a backup: nothing more is sent from it. To send the rest, start a new giveaway.
giveaway-cancelled-rest = Cancelled: nothing more will be sent.
giveaway-summary = 🎁 Giveaway over: { $delivered } delivered, { $refused } refused, { $unknown } unknown, { $dropped } not sent, of { $total }. Every recipient's outcome is in the list below.
giveaway-summary-caption = The giveaway's outcomes, one row per recipient.

# ---- An unknown outcome settled (issue 37) ----

## The requester learns how it ended (never the service's own words)
settled-title = 🔔 News about your gift whose outcome was unknown:
settled-admin-delivered = ✅ Delivered: { $gift } to @{ $username }. The admins checked it.
settled-admin-not-delivered = ❌ Not delivered: { $gift } to @{ $username }. The admins checked it; you can gift it again.

## Admins: a settled alert or /pending message, a late answer, a contradiction
admin-settled-title-delivered = ✅ Settled as delivered: { $gift } to @{ $recipient }.
admin-settled-title-not-delivered = ❌ Settled as not delivered: { $gift } to @{ $recipient }.
admin-settled-title-succeeded = ✅ Delivered, as the service's late answer says: { $gift } to @{ $recipient }.
admin-settled-title-rejected = ❌ Refused, as the service's late answer says: { $gift } to @{ $recipient }.
admin-resolved-late = Settled by the service's own answer ({ $outcome }), which came after the outcome was marked unknown.
admin-late-answer = The service answered: { $answer }
admin-late-settled-delivered = 📬 The service's answer came late and settled an unknown outcome: { $gift } to @{ $recipient } was delivered.
admin-late-settled-refused = 📬 The service's answer came late and settled an unknown outcome: { $gift } to @{ $recipient } was refused, nothing spent.
admin-late-settled-hint = Nothing is left to settle for it, and it no longer holds purchases.
admin-late-contradiction-title = 🚨 A late answer contradicts a settlement: { $gift } to @{ $recipient }.
admin-late-contradiction-was-not = { $admin } settled it as not delivered ({ $date }).
admin-late-contradiction-was = { $admin } settled it as delivered ({ $date }).
admin-late-contradiction-delivered = It was delivered after all. Its requester was told it was not and may have gifted it again: look in /purchases for a second gift to the same recipient. The settlement stays on record, the service's answer kept beside it.
admin-late-contradiction-refused = The service refused it: nothing was delivered or spent, though it was settled as delivered and its requester was told so. Tell the requester, who may gift it again. The settlement stays on record, the service's answer kept beside it.

# The admins' Mini App (src/admin-app): /dashboard, the menu button, and the page's own texts.
command-dashboard = The admin app: spending, purchases, decisions
dashboard-button = 📊 Admin app
dashboard-open = The admin app: the spending, every purchase and the decisions waiting for you.
dashboard-not-configured = The admin app is off: set ADMIN_APP_PORT and ADMIN_APP_URL (see docs/admin-app.md).
app-title = Giftbot admin
app-tab-overview = Overview
app-tab-purchases = Purchases
app-loading = Loading…
app-overview-balance = Wallet balance
app-overview-balance-kept = the last balance kept: this replica does not read the service
app-overview-balance-unknown = The balance could not be read just now.
app-overview-today = Today's purchases (UTC)
app-overview-stars-today = Stars
app-overview-premium-today = Premium gifts
app-overview-purchases = Purchases
app-state-open = open
app-state-paused-admin = paused by an admin
app-state-paused-breaker = paused by the breaker after the service's refusals
app-state-on-hold = on hold until the unknown outcomes are settled
app-overview-pending = Waiting for your decision
app-overview-pending-none = Nothing is waiting for a decision.
app-overview-breaker = Breaker
app-breaker-closed = closed
app-breaker-open = open: it paused purchases
app-overview-lease = Replica that sends
app-lease-here = this one
app-lease-other = another replica
app-lease-none = none right now
app-overview-backup = Last backup
app-backup-none = none since this start
app-backup-not-kept = kept by the database's own backups (PostgreSQL)
app-chart-title = Delivered, last 30 days
app-chart-stars = Stars
app-chart-premium = Premium months
app-chart-gifts = Gifts
app-chart-ton = TON spent
app-chart-usdt = USDT spent
app-action-pause = Pause purchases
app-action-resume = Resume purchases
app-giveaways = Giveaways
app-giveaways-none = No giveaway is being sent.
app-count-delivered = delivered
app-count-refused = refused
app-count-unknown = unknown
app-count-waiting = waiting
app-search-person = Person: id or name
app-search-recipient = Recipient
app-filter-status = Status
app-filter-kind = Gift
app-filter-any = any
app-filter-from = From
app-filter-to = To
app-kind-stars = Stars
app-kind-premium = Premium
app-gift-stars = { $n } Stars
app-list-empty = No purchase matches.
app-list-found = Found
app-page-newer = ← Newer
app-page-older = Older →
app-detail-back = ← Back to the list
app-detail-id = Purchase id
app-detail-requester = Asked by
app-detail-recipient = Recipient
app-detail-gift = Gift
app-detail-status = Status
app-detail-created = Created
app-detail-sent = Sent
app-detail-finished = Finished
app-detail-balance-before = Balance before
app-detail-balance-now = Balance now
app-detail-cost = Cost
app-detail-tx = Transaction
app-detail-answer = The service's answer
app-detail-outcome = Outcome detail
app-detail-settled = Settled by
app-detail-history = Status history
app-detail-meanwhile = Other purchases out meanwhile
app-detail-giveaway = Giveaway
app-settle-delivered = ✅ Delivered
app-settle-not-delivered = ❌ Not delivered
app-error-network = The bot could not be reached. Try again.
app-error-expired = This session has expired or is not valid: open the app again from the bot's menu.
app-error-forbidden = Only the bot's admins can use this app.
app-done-settled-delivered = Settled as delivered. The buyer and the other admins are told.
app-done-settled-not-delivered = Settled as not delivered. The buyer and the other admins are told.
app-refused-standby = This replica is on standby: the replica that sends purchases makes decisions. Try again in a moment.
app-refused-rate = Too many actions in a minute: wait a little and try again.
app-refused-not-found = There is no such purchase or giveaway.

## Premium through Telegram, paid from the bot's own Telegram Stars (docs/telegram-premium.md)
summary-method-stars = Payment: { $stars } Telegram Stars from the bot's own balance (through Telegram, no wallet)
summary-stars-balance = The bot's Telegram Stars: { $stars }
summary-stars-balance-unknown = The bot's Telegram Stars: not available right now
summary-stars-short = ⚠️ The bot holds fewer Telegram Stars than this gift costs, so Confirm would be refused until the admins top the balance up (nothing would be spent).
outcome-proved = Telegram's answer was lost, but the bot's Telegram Star transactions show the gift was made.
refusal-not_enough_stars = the bot holds { $stars } Telegram Stars and this gift costs { $needed }. The admins can top the balance up.
refusal-not_enough_stars-group = the bot does not hold enough Telegram Stars for this gift right now.
refusal-stars_unavailable = the bot's Telegram Star balance could not be read just now. Press Confirm again in a moment.
premium-unnamed = I can gift Premium only to people whose Telegram account I know: @{ $username } has not written to me, and I never guess whom a username belongs to. Ask them to send me /start, or (in a group) reply to one of their messages with /premium.
settled-proved = ✅ Delivered: { $gift } to @{ $username }. Telegram's answer was lost, but the bot's Telegram Star transactions show the gift was made.
admin-settled-title-proved = ✅ Delivered, as the bot's Star transactions show: { $gift } to @{ $recipient }.
admin-resolved-proved = Settled with no admin: the bot's Telegram Star transaction { $id } proves it.
admin-proved-news = 📒 Telegram's answer to a Premium gift was lost, but the bot's Telegram Star transactions show it was made: { $gift } to @{ $recipient }, settled as delivered.
admin-proved-transaction = Transaction { $id }: { $stars } Stars to user { $user }, Premium duration in months: { $months }, { $date }.
admin-proved-balances = The bot's Stars before the gift and after: { $before } → { $after }.
admin-proved-hint = Nothing is left to settle for it, and it no longer holds purchases.
admin-evidence-stars-paid = Paid through Telegram from the bot's Telegram Stars: { $price } Stars (the wallet is not involved).
admin-evidence-stars-recipient = Recipient's Telegram user id: { $id }
admin-evidence-stars-balance = The bot's Stars before the gift: { $before }; now: { $now }.
admin-evidence-stars-search = The bot's Star transactions were read on { $date } ({ $read } entries{ $complete ->
    [yes] , the whole list
   *[no] , not the whole list
}): { $matches } Premium gift(s) to this user for this duration since the request, { $others } of them explained by other gifts. No proof that this gift was made.
admin-evidence-stars-search-unavailable = The bot's Star transactions could not be read on { $date }: { $detail }.
admin-evidence-stars-search-none = The bot's Star transactions have not been read for it yet.
admin-evidence-stars-hint = Each time this is shown the transactions are read again: a gift found there is settled as delivered by itself. If the recipient has Premium from this gift, settle it as delivered; otherwise as not delivered (nothing is sent again).
admin-balance-stars = Telegram Stars (the bot's own, for Premium through Telegram): { $stars }
admin-balance-stars-unavailable = Telegram Stars (the bot's own): not available right now
admin-low-balance-stars = ⚠️ The bot is running low on Telegram Stars: { $value } (alert below { $threshold }). Premium through Telegram is refused once a gift costs more than the balance; /topup adds Stars.
report-stars = The bot's Telegram Stars now: { $stars }; topped up that day: { $added } in { $count } payment(s).
report-stars-unknown = The bot's Telegram Stars now: not known; topped up that day: { $added } in { $count } payment(s).
command-topup = Add Telegram Stars to the bot's balance
command-refund = Refund a top-up made by mistake
topup-off = Premium through Telegram is off (PREMIUM_VIA is service): the bot's own Telegram Stars are not used, so there is nothing to top up.
topup-usage = Send /topup and a number of Stars from { $min } to { $max }, e.g. /topup 1000. You pay it from your own Telegram account; the Stars go to the bot's balance, which pays for Premium gifted through Telegram.
topup-title = Telegram Stars for the bot
topup-description = { $stars } Telegram Stars for the bot's own balance, which pays for Premium gifted through Telegram.
topup-label = { $stars } Telegram Stars
topup-not-admin = Only the bot's admins can top up its balance.
topup-paid = ⭐ Thank you: { $stars } Telegram Stars were added to the bot's balance (charge { $charge }). The bot now holds { $balance } Stars.
topup-paid-balance-unknown = ⭐ Thank you: { $stars } Telegram Stars were added to the bot's balance (charge { $charge }).
topup-paid-admins = ⭐ { $who } topped the bot up with { $stars } Telegram Stars (charge { $charge }).
topup-refused = This invoice is not one the bot sent for its balance.
refund-usage = Send /refund and a charge id from the list, e.g. /refund { $example }, to give a top-up back to whoever paid it.
refund-list-empty = There is no top-up to refund.
refund-list-title = Top-ups, newest first:
refund-list-line = { $date }: { $stars } Stars from { $who }, charge { $charge }{ $refunded ->
    [yes] , refunded
   *[no] {""}
}
refund-unknown = There is no top-up with that charge id.
refund-already = That top-up was refunded already.
refund-done = ↩️ Refunded: { $stars } Telegram Stars went back to { $who } (charge { $charge }).
refund-failed = Telegram refused the refund: { $reason }
