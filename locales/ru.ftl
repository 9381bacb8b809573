# giftbot: русский. Все ключи здесь те же, что в en.ftl (это проверяет тест).

## Command list (setMyCommands)
command-start = Главное меню
command-stars = Подарить Telegram Stars
command-premium = Подарить Telegram Premium
command-history = Ваши подарки и их статус
command-language = Сменить язык
command-cancel = Отменить текущее действие
command-help = Как работает бот

## Start and help
start-greeting = Здравствуйте, { $name }! Я дарю Telegram Stars и Telegram Premium любому, у кого есть @username. Что вы хотите сделать?
button-gift-stars = ⭐ Подарить звёзды
button-gift-premium = 💎 Подарить Premium
help-text =
    Я дарю Telegram Stars и Telegram Premium по @username.

    /stars: подарить звёзды (от 50 до 1 000 000)
    /premium: подарить Premium на 3, 6 или 12 месяцев
    /history: ваши подарки и их статус
    /language: русский или английский
    /cancel: остановиться на любом шаге

    Перед покупкой вы увидите сводку, и ничего не будет куплено, пока вы не нажмёте «Подтвердить».

## Language
language-choose = Выберите язык:
language-changed = Теперь я говорю по-русски.
language-name-en = English
language-name-ru = Русский

## Cancel
button-cancel = ✖️ Отмена
cancel-done = Отменено. Ничего не куплено.
cancel-nothing = Отменять нечего.

## History
history-empty = Вы ещё не отправляли подарков. Попробуйте /stars или /premium.
history-title = Ваши последние подарки:
history-item-stars = { $date }: { $amount } { $amount ->
        [one] звезда
        [few] звезды
       *[many] звёзд
    } для @{ $recipient }: { $status }
history-item-premium = { $date }: Premium на { $months } { $months ->
        [one] месяц
        [few] месяца
       *[many] месяцев
    } для @{ $recipient }: { $status }
status-draft = не подтверждён
status-sending = отправляется
status-succeeded = доставлен
status-rejected = отклонён, ничего не списано
status-unconfirmed = результат неизвестен, администраторы проверяют
status-delivered = доставлен (проверено администраторами)
status-not_delivered = не доставлен (проверено администраторами)
status-cancelled = отменён
status-expired = истёк

## Flows: recipient
flow-ask-recipient-stars = Кому подарить звёзды? Отправьте @username или ссылку t.me.
flow-ask-recipient-premium = Кому подарить Telegram Premium? Отправьте @username или ссылку t.me.
flow-recipient-invalid = Это не похоже на имя пользователя. Имя состоит из 4–32 латинских букв, цифр или подчёркиваний и начинается с буквы. Отправьте его ещё раз.
flow-recipient-not-found = Пользователь @{ $username } не найден. Проверьте написание и отправьте имя ещё раз.
flow-recipient-refused = Сервис не смог проверить @{ $username } ({ $detail }). Отправьте имя ещё раз или попробуйте другое.
flow-recipient-rate-limited = Сервис перегружен. Подождите { $seconds } с и отправьте имя ещё раз.
flow-recipient-unavailable = Сервис сейчас не отвечает. Отправьте имя ещё раз через минуту.
flow-recipient-has-premium = У @{ $username } уже есть Telegram Premium, поэтому подарить его сейчас нельзя. Отправьте другое имя или /cancel.
flow-expect-text = Отправьте имя пользователя текстом или /cancel.

## Flows: amount and duration
flow-ask-amount = Сколько звёзд подарить @{ $username }?
button-amount = ⭐ { $amount }
button-amount-other = Другое количество
flow-ask-amount-custom = Отправьте количество звёзд: целое число от { $min } до { $max }.
flow-amount-invalid = Это не целое число от { $min } до { $max }. Отправьте количество звёзд ещё раз.
flow-ask-duration = На какой срок подарить Telegram Premium для @{ $username }?
button-duration = { $months } { $months ->
        [one] месяц
        [few] месяца
       *[many] месяцев
    }
flow-expect-button = Выберите вариант кнопками выше или /cancel.
flow-button-inactive = Эта кнопка больше не действует.

## Summary
summary-title = Проверьте подарок:
summary-recipient = Получатель: @{ $username }
summary-stars = Подарок: { $amount } Telegram Stars
summary-premium = Подарок: Telegram Premium на { $months } { $months ->
        [one] месяц
        [few] месяца
       *[many] месяцев
    }
summary-method = Оплата: { $method }
summary-balance = Баланс кошелька: { $ton } TON, { $usdt } USDT
summary-balance-unknown = Баланс кошелька: сейчас недоступен
summary-confirm-hint = Ничего не будет куплено, пока вы не нажмёте «Подтвердить».
method-ton = TON
method-usdt_ton = USDT в сети TON
button-confirm = ✅ Подтвердить
button-switch-method = Сменить оплату на { $method }
summary-method-changed = Способ оплаты изменён.
summary-sending = ⏳ Отправляю подарок…
summary-queued = ⏳ Сервис перегружен: подарок в очереди и будет отправлен примерно через { $seconds } с.
unknown-value = ?

## Outcomes
outcome-delivered-stars = ✅ Доставлено: { $amount } Telegram Stars для @{ $username }.
outcome-delivered-premium = ✅ Доставлено: Telegram Premium на { $months } { $months ->
        [one] месяц
        [few] месяца
       *[many] месяцев
    } для @{ $username }.
outcome-transaction = Транзакция: { $url }
outcome-rejected = ❌ Сервис отказал в покупке: { $reason }. Ничего не списано.
outcome-no-reason = причина не указана
outcome-unknown = ⚠️ Результат неизвестен. Не пытайтесь повторить: администраторы проверяют и всё уладят.
outcome-unknown-wait = Сервис также попросил подождать { $seconds } с перед новым запросом.
outcome-has-premium = У @{ $username } уже есть Telegram Premium. Ничего не куплено.
outcome-cancelled = Отменено. Ничего не куплено.
outcome-refused = Ничего не куплено: { $reason }

## Why a button press did nothing
refusal-not_found = эта сводка неизвестна.
refusal-not_owner = это не ваша сводка.
refusal-already_processing = этот подарок уже отправляется.
refusal-already_done = этот подарок уже обработан.
refusal-cancelled = эта сводка отменена.
refusal-expired = срок действия сводки истёк. Начните заново: /stars или /premium.
refusal-paused = администраторы временно приостановили покупки.
refusal-frozen = покупки приостановлены, пока администраторы проверяют предыдущий подарок.
refusal-limit = достигнут лимит «{ $limit }» ({ $used } из { $max }). Он обнулится { $resetsAt } UTC.
limit-stars_per_purchase = звёзд в одной покупке
limit-stars_per_user_day = ваших звёзд в день
limit-stars_per_bot_day = звёзд в день для всех
limit-premium_per_user_day = ваших подарков Premium в день
limit-premium_per_bot_day = подарков Premium в день для всех

## Access and errors
callback-invalid = Эта кнопка недействительна.
purchase-not-allowed = Покупки для вас закрыты. Попросите доступ у администраторов бота.
error-generic = Извините, у меня что-то пошло не так. Попробуйте ещё раз.
