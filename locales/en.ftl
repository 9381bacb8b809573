# giftbot: English. Every key here must also exist in ru.ftl (a test checks it).

## Command list (setMyCommands)
command-start = Main menu
command-stars = Gift Telegram Stars
command-premium = Gift Telegram Premium
command-history = Your gifts and their status
command-language = Change the language
command-cancel = Cancel what you are doing
command-help = How this bot works

## Start and help
start-greeting = Hi, { $name }! I can gift Telegram Stars or Telegram Premium to anyone with a @username. What would you like to do?
button-gift-stars = ⭐ Gift stars
button-gift-premium = 💎 Gift premium
help-text =
    I gift Telegram Stars and Telegram Premium to a @username.

    /stars: gift stars (from 50 to 1,000,000)
    /premium: gift Premium for 3, 6 or 12 months
    /history: your gifts and their status
    /language: English or Russian
    /cancel: stop at any step

    You will see a summary before anything is bought, and nothing is bought until you press Confirm.

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
history-item-stars = { $date }: { $amount } stars to @{ $recipient }: { $status }
history-item-premium = { $date }: Premium for { $months } months to @{ $recipient }: { $status }
status-draft = not confirmed
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
flow-recipient-not-found = I could not find @{ $username }. Check the spelling and send the username again.
flow-recipient-refused = The service could not check @{ $username } ({ $detail }). Send the username again or try another one.
flow-recipient-rate-limited = The service is busy. Please wait { $seconds } s, then send the username again.
flow-recipient-unavailable = The service is not answering right now. Please send the username again in a minute.
flow-recipient-has-premium = @{ $username } already has Telegram Premium, so it cannot be gifted to them now. Send another username, or /cancel.
flow-expect-text = Please send the username as a text message, or /cancel.

## Flows: amount and duration
flow-ask-amount = How many stars for @{ $username }?
button-amount = ⭐ { $amount }
button-amount-other = Another amount
flow-ask-amount-custom = Send the number of stars: a whole number from { $min } to { $max }.
flow-amount-invalid = That is not a whole number from { $min } to { $max }. Please send the number of stars again.
flow-ask-duration = How long should @{ $username } get Telegram Premium?
button-duration = { $months } months
flow-expect-button = Please choose with the buttons above, or /cancel.
flow-button-inactive = This button is no longer active.

## Summary
summary-title = Please check your gift:
summary-recipient = Recipient: @{ $username }
summary-stars = Gift: { $amount } Telegram Stars
summary-premium = Gift: Telegram Premium for { $months } months
summary-method = Payment: { $method }
summary-balance = Wallet balance: { $ton } TON, { $usdt } USDT
summary-balance-unknown = Wallet balance: not available right now
summary-confirm-hint = Nothing is bought until you press Confirm.
method-ton = TON
method-usdt_ton = USDT on TON
button-confirm = ✅ Confirm
button-switch-method = Pay with { $method }
summary-method-changed = Payment method changed.
summary-sending = ⏳ Sending your gift…
summary-queued = ⏳ The service is busy: your gift is queued and will be sent in about { $seconds } s.
unknown-value = ?

## Outcomes
outcome-delivered-stars = ✅ Delivered: { $amount } Telegram Stars to @{ $username }.
outcome-delivered-premium = ✅ Delivered: Telegram Premium for { $months } months to @{ $username }.
outcome-transaction = Transaction: { $url }
outcome-rejected = ❌ The service refused the purchase: { $reason }. Nothing was spent.
outcome-no-reason = no reason given
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
refusal-limit = the limit "{ $limit }" is reached ({ $used } of { $max }). It resets on { $resetsAt } UTC.
limit-stars_per_purchase = stars in one purchase
limit-stars_per_user_day = your stars per day
limit-stars_per_bot_day = stars per day for everyone
limit-premium_per_user_day = your Premium gifts per day
limit-premium_per_bot_day = Premium gifts per day for everyone

## Access and errors
callback-invalid = This button is not valid.
purchase-not-allowed = Purchases are not open to you. Please ask the bot's admins for access.
error-generic = Sorry, something went wrong on my side. Please try again.
