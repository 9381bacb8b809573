# giftbot: русский. Все ключи здесь те же, что в en.ftl (это проверяет тест).

## Command list (setMyCommands)
command-start = Главное меню
command-stars = Подарить Telegram Stars
command-premium = Подарить Telegram Premium
command-history = Ваши подарки и их статус
command-language = Сменить язык
command-cancel = Отменить текущее действие
command-help = Как работает бот

## The gift's one name, used in every text that names a gift (summary, outcome, history, admins)
gift-stars = { $amount } Telegram Stars
gift-premium = Telegram Premium на { $months } { $months ->
        [one] месяц
        [few] месяца
       *[many] месяцев
    }

## Start and help
start-greeting = Здравствуйте, { $name }! Я дарю Telegram Stars и Telegram Premium любому, у кого есть @username. Что вы хотите сделать?
button-gift-stars = ⭐ Подарить звёзды
button-gift-premium = 💎 Подарить Premium
help-text =
    Я дарю Telegram Stars и Telegram Premium по @username.

    /stars: подарить звёзды (от { $min } до { $max })
    /premium: подарить Premium на 3, 6 или 12 месяцев
    /history: ваши подарки и их статус
    /language: русский или английский
    /cancel: остановиться на любом шаге

    Перед покупкой вы увидите сводку, и ничего не будет куплено, пока вы не нажмёте «Подтвердить».
help-admin =
    Как администратору вам также доступны:
    /balance: кошелёк, покупки за сегодня и открыты ли покупки
    /purchases: последние покупки; /purchases <id>: одна подробно
    /pending: покупки с неизвестным результатом, которые нужно уладить
    /pause и /resume: остановить и снова открыть все покупки
    /allow и /deny: разрешить человеку покупать или запретить (id пользователя или ответ на пересланное от него сообщение)
    /allowed: кто может покупать
    /limits: лимиты трат и их использование сегодня
    /export: покупки за период в файле CSV (/export 2026-11-01 2026-11-30; без дат: этот месяц до сегодня)
    /backup: сделать резервную копию базы сейчас (файл остаётся на сервере)
    /giveaway: подарок каждому из списка (сообщением или файлом .txt/.csv), с проверкой перед подтверждением
    /dashboard: приложение администратора: расходы, все покупки и решения в одном месте
    /allowchat и /denychat (внутри группы): разрешить администраторам этой группы дарить Premium или запретить
    /topup и /refund: пополнить собственные Telegram Stars бота (Premium через Telegram) или вернуть пополнение

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
history-item = { $date }: { $gift } для @{ $recipient }: { $status }
status-draft = не подтверждён
status-queued = подтверждён, ждёт своей очереди
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
flow-recipient-not-found = Пользователь @{ $username } не найден. Проверьте написание и отправьте имя ещё раз или нажмите /cancel.
flow-recipient-refused = Не получилось проверить @{ $username } прямо сейчас. Отправьте имя ещё раз или попробуйте другое (/cancel — отменить).
flow-recipient-rate-limited = Сервис перегружен. Подождите { $seconds } с и отправьте имя ещё раз.
flow-recipient-unavailable = Сервис сейчас не отвечает. Отправьте имя ещё раз через минуту.
flow-recipient-throttled = Вы проверяете получателей слишком часто. Пожалуйста, помедленнее: отправьте имя ещё раз через { $seconds } с.
flow-recipient-superseded = Тем временем вы спросили о другом получателе, поэтому эта проверка отменена. Отправьте @{ $username } ещё раз, чтобы проверить его.
flow-recipient-has-premium = У @{ $username } уже есть Telegram Premium, поэтому подарить его сейчас нельзя. Отправьте другое имя или /cancel.
flow-expect-text = Отправьте имя пользователя текстом или /cancel.

## Flows: amount and duration
flow-ask-amount = Сколько звёзд подарить @{ $username }? Не больше { $max } за один подарок.
flow-ask-amount-today = Сколько звёзд подарить @{ $username }? Сегодня можно подарить ещё { $max }.
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
flow-paused = ⏸ Администраторы временно приостановили покупки, так что сейчас ничего купить нельзя. Попробуйте позже.
flow-notice-paused-breaker = ⏸ Покупки временно приостановлены: сервис отклонил последние покупки, администраторы уже знают. Подарок можно подготовить: «Подтвердить» снова заработает, когда покупки откроют.
flow-notice-frozen = ⏸ Покупки приостановлены, пока администраторы проверяют предыдущий подарок. Подарок можно подготовить: «Подтвердить» снова заработает, когда они закончат.
flow-limit-reached = Сегодня больше ничего нельзя подарить по лимиту «{ $limit }»: осталось { $left } из { $max }, меньше самого маленького подарка. Лимит обнулится { $resetsAt }.

## Summary
summary-title = Проверьте подарок:
summary-recipient = Получатель: @{ $username }
summary-gift = Подарок: { $gift }
summary-method = Оплата: { $method }
summary-balance = Баланс кошелька: { $ton } TON, { $usdt } USDT
summary-balance-unknown = Баланс кошелька: сейчас недоступен
summary-wallet-short = ⚠️ Сейчас в кошельке магазина не хватает средств на этот подарок, поэтому «Подтвердить» скорее всего закончится отказом (ничего не спишется). Выберите подарок поменьше или попробуйте позже.
summary-confirm-hint = Ничего не будет куплено, пока вы не нажмёте «Подтвердить».
method-ton = TON
method-usdt_ton = USDT в сети TON
button-confirm = ✅ Подтвердить
button-switch-method = Сменить оплату на { $method }
summary-method-changed = Способ оплаты изменён.
summary-paused = ⏸ Администраторы временно приостановили покупки: «Подтвердить» снова заработает, когда они их откроют.
summary-paused-breaker = ⏸ Покупки временно приостановлены (сервис отклонил последние покупки, администраторы уже знают): «Подтвердить» снова заработает, когда их откроют.
summary-frozen = ⏸ Покупки приостановлены, пока администраторы проверяют предыдущий подарок: «Подтвердить» снова заработает, когда они закончат.
purchases-reopened = ▶ Покупки снова открыты: можно дарить.
purchases-reopened-summary = ▶ Покупки снова открыты: можно дарить. Сохранённую сводку можно подтвердить.
summary-sending = ⏳ Отправляю подарок…
flow-queued = ⏳ Сервис сейчас занят: отвечу примерно через { $seconds } с.
summary-queued = ⏳ Сервис перегружен: подарок в очереди и будет отправлен примерно через { $seconds } с.
unknown-value = ?

## Outcomes
outcome-delivered = ✅ Доставлено: { $gift } для @{ $username }.
outcome-transaction = Транзакция: { $url }
outcome-transaction-hash = Транзакция: { $hash }
outcome-rejected-recipient = ❌ @{ $username } не может получить этот подарок: аккаунт не найден или не принимает подарки. Ничего не списано. Проверьте имя и попробуйте снова.
outcome-rejected-premium = ❌ У @{ $username } уже есть Telegram Premium, поэтому подарить его сейчас нельзя. Ничего не списано.
outcome-rejected-amount = ❌ Подарок не приняли в таком виде (количество, срок или способ оплаты). Ничего не списано. Попробуйте другое количество или срок.
outcome-rejected-limit = ❌ Такой подарок сейчас купить нельзя: он больше допустимого. Ничего не списано. Попробуйте подарок поменьше или повторите позже.
outcome-rejected-setup = ❌ Магазин сейчас не может покупать подарки, администраторы уже знают об этом. Ничего не списано. Попробуйте позже.
outcome-rejected-unknown = ❌ В покупке отказано. Ничего не списано. Попробуйте позже.
outcome-not-sent = ❌ Не отправлено: запрос не ушёл в сервис. Ничего не списано, можно попробовать снова.
outcome-closed = ❌ Не отправлено: { $reason } Ничего не списано.
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
refusal-busy = сейчас отправляется другой подарок. Нажмите «Подтвердить» ещё раз чуть позже.
refusal-recipient_unverified = не удалось повторно проверить получателя. Нажмите «Подтвердить» ещё раз чуть позже.
refusal-recipient_premium_unknown = сервис не смог сказать, есть ли у получателя Premium, поэтому ничего не куплено. Попробуйте позже.
refusal-no_access = вам больше нельзя покупать подарки здесь.
refusal-storage = боту сейчас не удалось записать ваше подтверждение. Ничего не куплено; попробуйте ещё раз через минуту.
refusal-stopping = бот перезапускается; нажмите «Подтвердить» ещё раз через минуту.
refusal-limit = этот подарок больше, чем осталось сегодня по лимиту «{ $limit }»: осталось { $left } из { $max }. Лимит обнулится { $resetsAt }.
refusal-limit-per-purchase = в одной покупке можно не больше { $max ->
        [one] { $max } звезды
       *[other] { $max } звёзд
    }.
refusal-limit-group = достигнут лимит «{ $limit }». Он обнулится { $resetsAt }.
limit-stars_per_purchase = звёзд в одной покупке
limit-stars_per_user_day = ваших звёзд в день
limit-stars_per_bot_day = звёзд в день для всех
limit-premium_per_user_day = ваших подарков Premium в день
limit-premium_per_bot_day = подарков Premium в день для всех

## Access and errors
callback-invalid = Эта кнопка недействительна.
purchase-not-allowed = Покупки для вас закрыты. Попросите доступ у администраторов бота.
error-generic = Извините, у меня что-то пошло не так. Попробуйте ещё раз.
fallback-not-understood = Я не понял. Начните с /stars или /premium, или загляните в /help.

# ---- Администраторы, доступ и группы (задача 5; раздел помощника "admin") ----

## Кто может покупать
access-denied = Покупки для вас закрыты. Чтобы получить доступ, напишите администраторам бота и сообщите им ваш id: { $userId }.
access-denied-contact = Покупки для вас закрыты. Чтобы получить доступ, напишите { $contact } и сообщите ваш id: { $userId }.
stranger-answered-recently = Я только что ответил вам: смотрите сообщение выше. Снова отвечу через { $seconds } с.
flood-slow-down = Вы отправляете сообщения слишком быстро. Пожалуйста, помедленнее: до { $seconds } с я не буду отвечать.
access-group-premium-only = В группах я дарю только Telegram Premium, командой /premium.
access-group-not-allowed = В этой группе подарки не включены. Администратор бота может включить их командой /allowchat.
access-group-admins-only = Дарить Premium здесь могут только администраторы группы.
access-group-check-failed = Не удалось проверить ваши права администратора. Попробуйте ещё раз.

## Подарки Premium в группах
group-help = В этой группе администраторы группы могут подарить участнику Telegram Premium: ответьте на его сообщение командой /premium или напишите /premium @username (/cancel отменяет). Звёзды, /history и всё остальное работают в личном чате со мной: @{ $bot }.
group-help-off = Подарки в этой группе не включены; администратор бота может включить их командой /allowchat. Звёзды и Premium можно подарить в личном чате со мной: @{ $bot }.
group-answered-recently = Я только что ответил здесь: смотрите сообщение выше. В группе я отвечаю не чаще раза в 30 с; спросите снова через { $seconds } с.
group-usage = Ответьте на сообщение участника командой /premium или напишите /premium @username.
group-limit-reached = Сегодня больше ничего нельзя подарить по лимиту «{ $limit }». Лимит обнулится { $resetsAt }.
group-no-username = У пользователя { $name } нет публичного @username, поэтому подарить ему Premium нельзя. Username можно задать в настройках Telegram.
group-recipient-not-found = Не удалось найти @{ $username }.
group-recipient-has-premium = У @{ $username } уже есть Telegram Premium.
group-recipient-busy = Сервис занят. Повторите /premium через { $seconds } с.
group-recipient-unavailable = Сейчас не удаётся проверить @{ $username }. Повторите /premium через минуту.
group-recipient-throttled = Вы проверяете получателей слишком часто. Пожалуйста, помедленнее: повторите /premium через { $seconds } с.
group-recipient-superseded = Тем временем вы спросили о другом получателе, поэтому проверка @{ $username } отменена. Повторите /premium.
group-ask-duration = Telegram Premium для @{ $username }: на какой срок?
group-not-yours = Этими кнопками может пользоваться только администратор, который начал подарок.
group-flow-expired = Этот подарок начат слишком давно. Начните заново с /premium.

## Администратор: имена и покупки
admin-user = { $id }
admin-user-labelled = { $label } ({ $id })
admin-chat-private = личном чате
admin-chat-group = группе { $chatId }
admin-intent-id = Id покупки: { $id }
admin-intent-requester = Запросил { $who } в { $chat }
admin-intent-sent = Отправлено: { $date }
admin-intent-detail = Подробности: { $detail }

## Подробности результата, для администраторов (слова сервиса приводятся как есть, без перевода)
admin-unrecorded-title = ⚠️ Результат покупки не удалось записать в базу данных: { $gift } для @{ $recipient }.
admin-unrecorded-answer = Ответ сервиса: { $answer }
admin-unrecorded-hold = Покупки приостановлены. Бот продолжает попытки записать результат; как только получится, покупка придёт к вам как неизвестный исход для проверки.
admin-storage-transient = ⚠️ База данных бота несколько секунд отказывала в записи покупки ({ $operation }, { $code }): её блокировку может держать другая программа, или диск полон либо сбоит. По этому подтверждению ничего не отправлено, покупатель извещён. Бот продолжает работу и повторяет каждую запись.
admin-storage-permanent = ⚠️ База данных бота отказывает в записи ({ $operation }, { $code }) и сама не восстановится: файл может быть только для чтения или повреждён. Покупки не пойдут, пока это не исправлено: проверьте диск, права на файл и журнал бота.
detail-answer-success = доставлено.
detail-interrupted = прервано: процесс остановился, пока запрос покупки был в пути
detail-restored = восстановлено из резервной копии: в копии покупка отправлялась или ждала очереди, и неизвестно, была ли она отправлена после создания копии.
detail-unrecorded = сервис ответил ({ $outcome }), но база данных не смогла сразу записать ответ; сверьте его с доказательствами.
detail-late-answer = ответ ({ $outcome }) пришёл после того, как перезапуск уже отметил покупку как неизвестную.
detail-late-settled = ответ сервиса ({ $outcome }) пришёл после того, как перезапуск отметил покупку как неизвестную, и решил её исход.
detail-not-sent-shutdown = не отправлено: отменено при остановке
detail-not-sent-cancelled = не отправлено: отменено до отправки
detail-not-sent-invalid = не отправлено: собственная проверка бота отклонила поле { $field }
detail-not-sent-queued = не отправлено: подтверждение ждало своей очереди, и { $reason }
detail-queued-paused = покупки были приостановлены
detail-queued-frozen = результат более ранней покупки был неизвестен
detail-queued-limit = был достигнут лимит трат
detail-queued-no_access = человеку больше нельзя было покупать
detail-queued-recipient_has_premium = у получателя уже был Premium
detail-queued-other = его уже нельзя было отправить
detail-cause-rate_limited = сервис ответил HTTP { $status } (занят): покупка могла как состояться, так и нет
detail-cause-timeout = ответа не было вовремя: покупка могла как состояться, так и нет
detail-cause-transport = соединение оборвалось: покупка могла как состояться, так и нет
detail-cause-malformed = ответ сервиса не удалось прочитать: покупка могла как состояться, так и нет
detail-cause-unexpected_status = сервис ответил неожиданным HTTP { $status }: покупка могла как состояться, так и нет
detail-cause-unconfirmed = сервис отметил результат как неподтверждённый
detail-refused = сервис отказал (HTTP { $status }): «{ $reason }»
detail-refused-no-reason = сервис отказал (HTTP { $status }) без объяснения причины
detail-service-said = Ответ сервиса: «{ $reason }».
detail-other = «{ $detail }»

## Администратор: /balance
admin-balance-title = 💰 Кошелёк
admin-balance-ton = TON: { $ton }
admin-balance-usdt = USDT: { $usdt }
admin-balance-unavailable = Баланс: сервис сейчас не отвечает.
admin-balance-rate-limited = Баланс: сервис занят, повторите через { $seconds } с.
admin-wallet-address = Адрес: { $address }
admin-wallet-address-unknown = Адрес: неизвестен (задайте WALLET_ADDRESS)
admin-wallet-version = Версия кошелька: { $version }
admin-today = Сегодня (UTC): отправлено покупок: { $count }; в лимиты засчитано звёзд: { $stars }, подарков Premium: { $premium }
admin-state-open = Покупки: открыты
admin-state-paused = Покупки: ⏸ приостановлены (/resume, чтобы открыть)
admin-state-frozen = Покупки: заморожены, непроверенных исходов: { $count } (/pending)
admin-quota-title = 📡 Квота сервиса
admin-quota-used = Использовано за последнее окно: { $used } из { $limit ->
        [one] { $limit } запроса
       *[other] { $limit } запросов
    }
admin-quota-queued = Ждут: покупки { $purchases }, чтения баланса { $shared }, проверки получателей { $reads }
admin-quota-retry-wait = ⏳ Ожидание после 429/503 ещё { $seconds } с
admin-quota-top = Больше всего ждут (пользователь: запросы): { $owners }
admin-throttled-none = Никто не ограничен.
admin-throttled-checks = Ограничены, слишком много проверок получателей (пользователь до UTC): { $people }
admin-throttled-updates = Ограничены, слишком много сообщений (пользователь до UTC): { $people }
admin-low-balance-ton = ⚠️ На кошельке заканчиваются TON: { $value } TON (порог { $threshold } TON).
admin-low-balance-usdt = ⚠️ На кошельке заканчиваются USDT: { $value } USDT (порог { $threshold } USDT).

## Администратор: /purchases
admin-purchases-empty = Покупок пока нет.
admin-purchases-title = Последние покупки ({ $from }–{ $to }), сначала новые:
admin-purchase-line = { $number }. { $date }: { $gift } для @{ $recipient }, { $status }, от { $who }
admin-purchases-hint = Нажмите номер, чтобы открыть покупку. Любая покупка по её id: /purchases <id>
button-admin-open = { $number }
button-admin-newer = ◀ Новее
button-admin-older = Старее ▶
admin-purchase-not-found = Покупки с id { $id } нет.
admin-detail-title = Покупка { $id }
admin-detail-gift = Подарок: { $gift } для @{ $recipient }
admin-detail-status = Статус: { $status }
admin-detail-created = Создана: { $date }
admin-detail-finished = Завершена: { $date }
admin-detail-resolved = Решение принял администратор { $admin }, { $date }
admin-detail-resolved-late = Решено запоздавшим ответом сервиса, { $date }

## Администратор: неизвестные исходы и /pending
admin-unconfirmed-title = ⚠️ Исход покупки неизвестен: { $gift } для @{ $recipient }.
admin-pending-title = ⏳ Исход неизвестен: { $gift } для @{ $recipient }.
admin-evidence-balance-before = Баланс до: { $ton } TON, { $usdt } USDT
admin-evidence-balance-now = Баланс сейчас: { $ton } TON, { $usdt } USDT
admin-evidence-balance-before-at = Баланс до: { $ton } TON, { $usdt } USDT, прочитан { $date }
admin-evidence-balance-before-at-sent = Баланс до: { $ton } TON, { $usdt } USDT, прочитан { $date } (за { $minutes } мин. до отправки)
admin-evidence-balance-before-with-summary = Баланс до: { $ton } TON, { $usdt } USDT, прочитан вместе со сводкой, не позже { $date }
admin-evidence-balance-now-at = Баланс сейчас: { $ton } TON, { $usdt } USDT, прочитан { $date }
admin-evidence-sent-since = Другие покупки, отправленные после чтения баланса «до» ({ $count }): часть списания может быть их.
admin-evidence-sent-since-line = • { $id }: { $gift } для @{ $recipient }, { $status }, отправлена { $date }
admin-evidence-sent-since-more = • и ещё { $count } (см. /purchases)
admin-evidence-premium-yes = У получателя сейчас есть Premium: да
admin-evidence-premium-no = У получателя сейчас есть Premium: нет
admin-evidence-premium-unknown = У получателя сейчас есть Premium: неизвестно
admin-evidence-transfers = Исходящих переводов в блокчейне с момента отправки: { $count }
admin-evidence-transfer = • { $date }: { $amount } TON на { $destination } { $comment } { $url }
admin-evidence-no-chain = Проверка в блокчейне: не настроена (TON_API_ENDPOINT).
admin-evidence-hint = Проверьте кошелёк и отметьте, что произошло. Покупки заморожены, пока не решены все неизвестные исходы.
admin-evidence-hint-stars = Проверьте, есть ли у получателя Premium от этого подарка, и отметьте, что произошло. Покупки заморожены, пока не решены все неизвестные исходы.
button-admin-delivered = ✅ Доставлено
button-admin-not-delivered = ❌ Не доставлено
admin-resolved-delivered = Отмечено как доставленное администратором { $admin }.
admin-resolved-not-delivered = Отмечено как недоставленное администратором { $admin }.
admin-resolved-already = уже решено: { $status }.
admin-resolve-left = Ещё ждут проверки неизвестных исходов: { $count } (/pending). Покупки пока заморожены.
admin-resolve-resumed = Все неизвестные исходы решены: покупки возобновлены.
admin-resolve-resumed-paused = Все неизвестные исходы решены, но покупки приостановлены: /resume, чтобы открыть их.
admin-pending-none = Нет покупок, ждущих проверки.
admin-pending-count = Покупок, ждущих проверки: { $count }

## Администратор: /pause и /resume
admin-paused = ⏸ Покупки приостановлены. Никто не сможет покупать до /resume.
admin-resumed = ▶ Покупки снова открыты.
admin-resumed-frozen = ▶ Пауза снята, но покупки заморожены из-за неизвестных исходов ({ $count }): решите их через /pending.

## Администратор: автоматическая пауза покупок, недоступность сервиса, перечитывание настроек
admin-breaker-opened = ⛔ Покупки приостановлены автоматически: сервис отклонил { $count ->
        [1] покупку
        [one] { $count } покупку подряд
        [few] { $count } покупки подряд
       *[many] { $count } покупок подряд
    } по причине, не связанной с данными покупателя.
admin-breaker-refusals-earlier = • { $count ->
        [one] { $count } отказ раньше
        [few] { $count } отказа раньше
       *[many] { $count } отказов раньше
    } (см. /purchases), затем:
admin-breaker-refusal = • { $date }, покупка { $id }: «{ $reason }»
admin-breaker-cause-session =
    Вероятнее всего, истекла сессия маркетплейса (или аккаунт снова требует проверки). Войдите в маркетплейс, запишите новый заголовок Cookie и дайте боту перечитать его (SIGHUP), перезапуск не нужен:
    • compose: перезапишите файл через sudo tee secrets/marketplace_cookie, затем docker compose kill -s HUP bot
    • systemd: запишите его в /etc/giftbot/secrets/marketplace_cookie, затем sudo systemctl reload giftbot
    • npm start: задайте MARKETPLACE_COOKIE в .env (или в файле, на который указывает MARKETPLACE_COOKIE_FILE), затем kill -HUP "$(pgrep -P <npm's pid>)"
    Файл, на который указывает MARKETPLACE_COOKIE_FILE, бот перечитывает и сам в течение нескольких секунд. Затем нажмите «Возобновить».
admin-breaker-cause-wallet = Вероятнее всего, на кошельке не хватает средств. Пополните кошелёк { $address }, затем нажмите «Возобновить».
admin-breaker-cause-unknown = Бот не знает эту причину. Проверьте причины выше и сервис и нажмите «Возобновить», когда всё исправлено.
admin-breaker-hint = На эти покупки ничего не потрачено. Если первая покупка после возобновления будет отклонена так же, покупки снова приостановятся.
button-admin-resume = ▶ Возобновить покупки
admin-breaker-resumed = ▶ Администратор { $admin } снова открыл покупки.
admin-breaker-resume-open = Автоматическая пауза уже снята: покупки открыты.
admin-breaker-resume-admin = Покупки сейчас приостановлены администратором, а не автоматически: /resume откроет их.
admin-state-paused-breaker = Покупки: ⛔ приостановлены автоматически после отказов сервиса (/resume, чтобы открыть)
admin-read-outage = ⚠️ Сервис покупки подарков не отвечает на проверки получателей и запросы баланса уже { $minutes } мин (неудачных запросов: { $failures }). Никто не может начать подарок, пока он не ответит.
admin-read-recovered = ✅ Сервис покупки подарков снова отвечает (был недоступен { $minutes } мин).
admin-reload-refused = ⚠️ Настройки перечитаны, но эти новые значения неверны и не приняты (остались прежние): { $variables }. Причина — в журнале бота.
refusal-paused-breaker = покупки временно приостановлены: сервис отклонил последние покупки, администраторы уже знают. Ничего не потрачено.

## Администратор: кто может покупать
admin-who-usage = Укажите, кого: /allow 123456789 или ответьте командой /allow на пересланное от этого человека сообщение (/deny работает так же).
admin-who-hidden = { $name } скрывает свой аккаунт в пересланных сообщениях, поэтому я не вижу, кто это. Попросите у него id (я показываю его, когда он пытается купить) и отправьте /allow с этим id.
admin-who-not-person = Это сообщение переслано из чата или канала, а не от человека.
admin-forwarded = Это сообщение от { $who }. Разрешить ему покупки?
button-admin-allow = ✅ Разрешить
button-admin-deny = 🚫 Запретить
admin-allowed-user = ✅ { $who } теперь может покупать.
admin-allow-admin = { $who } администратор и может покупать всегда.
admin-denied-user = { $who } больше не может покупать.
admin-deny-configured = { $who } разрешён в ALLOWED_USER_IDS: уберите его оттуда и перезапустите бота.
admin-deny-not-listed = { $who } не было в списке.
admin-deny-admin = { $who } администратор (ADMIN_IDS); в боте это не изменить.
admin-deny-public = Внимание: включён PUBLIC_PURCHASES, поэтому покупать по-прежнему могут все.
admin-allowed-title = Кто может покупать
admin-allowed-admins = Администраторы: { $ids }
admin-allowed-public = Покупать могут все (включён PUBLIC_PURCHASES).
admin-allowed-users = { $count ->
        [one] { $count } покупатель:
        [few] { $count } покупателя:
       *[many] { $count } покупателей:
    }
admin-allowed-users-none = Покупатели: пока никого. Добавьте командой /allow.
admin-allowed-chats = { $count ->
        [one] { $count } группа, где администраторы могут дарить Premium:
        [few] { $count } группы, где администраторы могут дарить Premium:
       *[many] { $count } групп, где администраторы могут дарить Premium:
    }
admin-allowed-chats-none = Группы: нет. Отправьте /allowchat в группе, чтобы добавить её.
admin-allowed-entry-config = • { $who }: из настроек
admin-allowed-entry-bot = • { $who }: добавил { $admin }, { $date }
admin-chat-allowed = ✅ Администраторы этой группы теперь могут дарить Telegram Premium командой /premium.
admin-chat-denied = Эта группа больше не может дарить Premium.
admin-chat-deny-configured = Эта группа разрешена в ALLOWED_CHAT_IDS: уберите её оттуда и перезапустите бота.
admin-chat-deny-not-listed = Эта группа не была разрешена.
admin-chat-only-in-group = Отправьте эту команду в нужной группе.

## Администратор: /limits
admin-limits-title = Лимиты трат (сегодняшний расход обнулится { $resetsAt }):
admin-limit-stars-purchase = Звёзд в одной покупке: до { $max }
admin-limit-stars-user = Звёзд на человека в день: до { $max }
admin-limit-stars-bot = Звёзд в день на всех: использовано { $used } из { $max }
admin-limit-premium-user = Подарков Premium на человека в день: до { $max }
admin-limit-premium-bot = Подарков Premium в день на всех: использовано { $used } из { $max }
admin-limit-admins-exempt = Администраторы не ограничены лимитами на человека.
admin-limit-admins-not-exempt = У администраторов те же лимиты на человека, что у всех.

## Администратор: меню команд (setMyCommands)
command-balance = Баланс кошелька и покупки за сегодня
command-purchases = Последние покупки или одна по id
command-pending = Покупки с неизвестным исходом
command-pause = Приостановить все покупки
command-resume = Возобновить покупки
command-allow = Разрешить человеку покупать
command-deny = Запретить человеку покупать
command-allowed = Кто может покупать
command-limits = Лимиты трат и расход за сегодня
command-group-premium = Подарить Telegram Premium участнику
command-export = Покупки за период в файле CSV
command-backup = Сделать резервную копию базы сейчас
admin-backup-done = 💾 Копия сохранена: { $path } ({ $size }). Файл остаётся на сервере: в нём id и имена людей.
admin-backup-failed = ❌ Не удалось сделать копию в { $dir }: { $reason }
admin-backup-unavailable = Этот бот хранит данные в PostgreSQL: делайте копии через pg_dump или средствами вашей базы данных.
admin-backup-failing = ⚠️ Не удалось сделать резервную копию базы в { $dir }: { $reason }. Бот повторяет попытку каждые 15 минут; покупки это не затрагивает. Следующее сообщение придёт, только когда копия снова получится.
admin-restored-title = ♻️ База данных восстановлена из резервной копии от { $taken }.
admin-restored-title-untimed = ♻️ База данных восстановлена из резервной копии.
admin-restored-intro = Копия не знает, что было отправлено после её создания, поэтому всё, что в ней ещё не отправлено, без нового решения отправлено не будет:
admin-restored-batch = • Розыгрыш «{ $gift } каждому получателю», начат { $started }: остановлен окончательно; не отправлено получателям: { $unsent }. Чтобы отправить им, начните новый розыгрыш.
admin-restored-summaries = • Открытые сводки покупок закрыты как просроченные: { $count }. Покупателям нужно начать заново.
admin-restored-unknown = • Покупок в процессе или в очереди, исход которых теперь неизвестен: { $count }. Каждая отправлена вам для проверки (/pending).
admin-restored-nothing = • В копии не было покупок в процессе, в очереди или открытых.

# ---- Сколько стоил каждый подарок (issue 13) ----

## Измеренная стоимость и оценка
cost-line = стоимость: { $amount } { $currency }
cost-line-history = , стоимость: { $amount } { $currency }
cost-line-measuring = стоимость: измеряется…
cost-detail = Стоимость: { $amount } { $currency } ({ $source })
cost-detail-unmeasured = Стоимость: не измерена ({ $reason })
cost-source-balance_after = баланс кошелька прочитан снова после доставки
cost-source-later_balance = более позднее чтение баланса, других покупок между ними не было
cost-source-on_chain = исходящий перевод в блокчейне
cost-unmeasured-other_purchase = одновременно ушла другая покупка
cost-unmeasured-balance_moved = баланс изменился не только из-за этой покупки
cost-unmeasured-no_reading_before = баланс не был прочитан непосредственно перед ней
cost-unmeasured-no_reading_after = баланс не был вовремя прочитан после неё
summary-estimate = Примерная стоимость: около { $amount } { $currency } (по { $count ->
        [one] { $count } недавней покупке
       *[other] { $count } недавним покупкам
    })
# Покупок такого вида ещё не измеряли: сервис не сообщает цены (docs/service-contract.md).
summary-estimate-unknown = Примерная стоимость: пока неизвестна (цены заранее не сообщаются; стоимость такого подарка измеряется, когда его покупают).
summary-estimate-exceeds = ⚠️ Оценка больше, чем есть в кошельке в { $currency }: сервис может отказать в покупке.

## Ежедневный отчёт
report-title = 📊 Отчёт за { $day } (UTC)
report-purchases = Отправлено покупок: { $count }
report-status-line = • { $status }: { $count }
report-bought = Куплено: звёзд — { $stars }, подарков Premium — { $gifts } (месяцев: { $months })
report-spent = Потрачено: { $amount } { $currency } (измерено по покупкам: { $count })
report-spent-none = Потрачено: измеренных стоимостей нет
report-unmeasured = Доставленных покупок без измеренной стоимости: { $count } (в сумму выше не входят).
report-balance-start = Баланс на начало дня: { $ton } TON, { $usdt } USDT
report-balance-start-unknown = Баланс на начало дня: неизвестен
report-balance-end = Баланс на конец дня: { $ton } TON, { $usdt } USDT
report-balance-end-unknown = Баланс на конец дня: неизвестен
report-figure-unknown = ?
report-unconfirmed = ⚠️ Неизвестных исходов ждут проверки сейчас: { $count } (/pending)
report-unconfirmed-none = Неизвестных исходов, ждущих проверки: нет
report-limits = Использовано дневных лимитов: звёзд { $stars } из { $starsMax }, подарков Premium { $premium } из { $premiumMax }
report-refusals = Отказы сервиса:
report-refusals-none = Отказы сервиса: нет
report-refusal-line = • { $reason }: { $count }
report-refusal-no-reason = причина не указана
report-breaker = Покупки приостанавливались автоматически после отказов сервиса: { $count ->
    [0] ни разу
    [one] { $count } раз
    [few] { $count } раза
   *[other] { $count } раз
}

## /export
export-usage = Отправьте /export за текущий месяц или /export 2026-11-01 2026-11-30 за период (UTC, обе даты включительно).
export-bad-dates = Не удалось прочитать даты. Напишите их как ГГГГ-ММ-ДД, первую не позже второй, например /export 2026-11-01 2026-11-30.
export-caption = Покупки, отправленные с { $from } по { $to } (UTC), по одной в строке.
export-failed = Не удалось отправить выгрузку. Попробуйте ещё раз.
export-failed-too-large = Файл слишком велик для Telegram. Выгрузите более короткий промежуток дней.
export-failed-permanent = Выгрузку не удалось сделать, и повтор не поможет, пока причина не устранена: она указана в журнале бота.

## Giveaways (/giveaway, admins)
giveaway-ask-kind = 🎁 Розыгрыш: по подарку каждому из списка. Что получит каждый?
giveaway-button-stars = ⭐ Звёзды
giveaway-button-premium = 💎 Premium
giveaway-ask-amount = Сколько звёзд каждому? Не больше { $max } на одного.
giveaway-ask-duration = На какой срок каждому подарить Telegram Premium?
giveaway-ask-recipients = Отправьте получателей: @имена или ссылки t.me через пробел, запятую или с новой строки. Или файлом .txt или .csv (в .csv — столбец «username», а без него все ячейки; не больше { $size }). Не больше { $max ->
        [one] { $max } получателя
        [few] { $max } получателей
       *[many] { $max } получателей
    }.
giveaway-expect-list = Отправьте получателей сообщением или файлом .txt/.csv (не больше { $size }) или /cancel.
giveaway-file-not-a-list = Это не список .txt или .csv. Отправьте получателей сообщением или файлом .txt/.csv.
giveaway-file-too-large = Файл больше { $size }. Отправьте список покороче.
giveaway-file-failed = Не удалось скачать файл из Telegram. Отправьте его ещё раз.
giveaway-too-many = В списке { $count } получателей, а в розыгрыше может быть не больше { $max }. Отправьте список покороче.
giveaway-no-recipients = В этом списке нет ни одного имени пользователя. Отправьте @имена или ссылки t.me.
giveaway-list-read = { $count ->
        [one] Прочитан { $count } получатель
        [few] Прочитано { $count } получателя
       *[many] Прочитано { $count } получателей
    }{ $duplicates ->
        [0] {""}
        [one] {" "}(повтор: { $duplicates } имя, объединено)
        [few] {" "}(повторы: { $duplicates } имени, объединены)
       *[many] {" "}(повторы: { $duplicates } имён, объединены)
    }. Проверяю их в сервисе…
giveaway-list-invalid = Не имена пользователей, пропущены ({ $count }): { $names }
giveaway-checking = Проверка { $done }/{ $total } { $bar }
giveaway-left-minutes = осталось ~{ $minutes } { $minutes ->
        [one] минута
        [few] минуты
       *[many] минут
    }
giveaway-left-under-minute = осталось меньше минуты
giveaway-button-stop = ⏹ Остановить проверку
giveaway-stopping = Останавливаю проверку…
giveaway-checks-stopped = Проверка остановлена на { $done }/{ $total }. Ничего не куплено; отправьте /giveaway, чтобы начать заново.
giveaway-checks-failed = Проверку не удалось закончить. Ничего не куплено; отправьте /giveaway, чтобы попробовать ещё раз.
giveaway-card-title = 🎁 Розыгрыш: { $gift } каждому
giveaway-card-can-receive = ✅ Могут получить ({ $count }): { $names }
giveaway-card-has-premium = 💎 Уже с Premium ({ $count }): { $names }
giveaway-card-not-found = ❓ Не найдены ({ $count }): { $names }
giveaway-card-unchecked = ⏳ Не проверены, сервис был занят ({ $count }): { $names }
giveaway-card-invalid = ✏️ Не имена пользователей ({ $count }): { $names }
giveaway-card-more = и ещё { $count }
giveaway-card-nobody = Никто из списка не может получить этот подарок.
giveaway-card-total-stars = Всего: { $count ->
        [one] { $count } подарок
        [few] { $count } подарка
       *[many] { $count } подарков
    }, { $stars ->
        [one] { $stars } звезда
        [few] { $stars } звезды
       *[many] { $stars } звёзд
    }.
giveaway-card-total-premium = Всего: { $count ->
        [one] { $count } подарок Premium
        [few] { $count } подарка Premium
       *[many] { $count } подарков Premium
    }.
giveaway-card-estimate = Примерная стоимость: около { $amount } { $currency } (по { $count ->
        [one] { $count } недавней покупке
       *[other] { $count } недавним покупкам
    }).
giveaway-card-no-estimate = Примерная стоимость: пока неизвестна (сервис не сообщает цены, а недавних измеренных покупок такого подарка нет: первый отправленный подарок будет измерен по балансу кошелька до и после).
giveaway-card-balance = Баланс кошелька: { $amount } { $currency }.
giveaway-card-balance-unknown = Баланс кошелька: сейчас не удалось узнать.
giveaway-card-exceeds = ⚠️ Оценка больше, чем есть в кошельке: сервис может отказать в последних подарках.
giveaway-card-room-stars = Сегодняшние лимиты оставляют { $left ->
        [one] { $left } звезду
        [few] { $left } звезды
       *[many] { $left } звёзд
    } (лимит: { $limit }).
giveaway-card-room-premium = Сегодняшние лимиты оставляют { $left ->
        [one] { $left } подарок Premium
        [few] { $left } подарка Premium
       *[many] { $left } подарков Premium
    } (лимит: { $limit }).
giveaway-card-over-limit = ⚠️ В сегодняшние лимиты помещается только { $fit } из { $count }: остальным будет отказано.
giveaway-card-same-as = ⚠️ Этот же подарок этим же получателям ({ $count }) уже разыгрывался: розыгрыш начат { $started }, доставлено: { $delivered }. Подтверждайте, только если это второй розыгрыш.
giveaway-button-confirm-again = ✅ Подтвердить второй розыгрыш
giveaway-button-csv = 📄 Скачать список
giveaway-stale = Этот розыгрыш уже закрыт. Отправьте /giveaway, чтобы начать заново.
giveaway-not-yours = Этот розыгрыш запустил другой админ.
giveaway-cancelled = Розыгрыш отменён. Ничего не куплено.
command-giveaway = Подарок каждому из списка
giveaway-sending-title = 🎁 Розыгрыш: { $gift } каждому получателю
giveaway-sending-progress = Отправлено { $done }/{ $total } { $bar }
giveaway-sending-counts = ✅ Доставлено: { $delivered } · ❌ Отказ: { $refused } · ❓ Неизвестно: { $unknown }
giveaway-sending-counts-dropped = ✅ Доставлено: { $delivered } · ❌ Отказ: { $refused } · ❓ Неизвестно: { $unknown } · ✖️ Не отправлено: { $dropped }
giveaway-spent = 💸 Потрачено: { $amounts }
giveaway-spent-partly = 💸 Потрачено: { $amounts } ({ $unmeasured })
giveaway-spent-unknown = 💸 Потрачено: не измерено ({ $unmeasured })
giveaway-spent-unmeasured = { $count ->
        [one] у { $count } подарка стоимость не измерена
       *[other] у { $count } подарков стоимость не измерена
    }
giveaway-state-running = ⏳ Отправляю по одному получателю; подарки людей идут первыми.
giveaway-state-paused = ⏸ Пауза. «Продолжить» продолжит со следующего получателя.
giveaway-state-stopped-unknown_outcome = ⛔ Остановлено: исход покупки неизвестен. Разберите его в /pending и нажмите «Продолжить».
giveaway-state-stopped-on_hold = ⛔ Остановлено: покупки приостановлены, пока не разобран неизвестный исход (/pending). Затем нажмите «Продолжить».
giveaway-state-stopped-purchases_paused = ⛔ Остановлено: покупки на паузе. Нажмите «Продолжить», когда их возобновят.
giveaway-state-stopped-limit = ⛔ Остановлено: дневной лимит трат исчерпан. Нажмите «Продолжить» после его сброса (полночь UTC).
giveaway-state-stopped-storage = ⛔ Остановлено: база данных бота отказала в записи. Нажмите «Продолжить», чтобы попробовать снова.
giveaway-state-stopped-service_unreachable = ⛔ Остановлено: не удалось повторно проверить получателя Premium (сервис не ответил). Нажмите «Продолжить», чтобы попробовать снова.
giveaway-state-stopped-restored = ⛔ Остановлено окончательно: база данных восстановлена из резервной копии, а копия не знает, что было отправлено после её создания. Чтобы отправить остальным, начните новый розыгрыш.
giveaway-state-cancelled = ✖️ Отменено: остальное не отправлено.
giveaway-state-finished = ✅ Готово.
giveaway-button-pause = ⏸ Пауза
giveaway-button-resume = ▶️ Продолжить
giveaway-button-cancel-rest = ✖️ Отменить остальное
giveaway-paused = Пауза после получателя, которому отправляется сейчас.
giveaway-resumed = Продолжаю со следующего получателя.
giveaway-resume-closed = Покупки на паузе или приостановлены: розыгрыш продолжится, когда они откроются. Тогда нажмите «Продолжить».
giveaway-resume-restored = Этот розыгрыш остановлен восстановлением из резервной копии: из него больше ничего не отправляется. Чтобы отправить остальным, начните новый розыгрыш.
giveaway-cancelled-rest = Отменено: больше ничего не будет отправлено.
giveaway-summary = 🎁 Розыгрыш завершён: доставлено { $delivered }, отказов { $refused }, неизвестно { $unknown }, не отправлено { $dropped } из { $total }. Исход для каждого получателя — в списке ниже.
giveaway-summary-caption = Исходы розыгрыша, по строке на получателя.

# ---- Решённый неизвестный исход (issue 37) ----

## Заказчик узнаёт, чем всё кончилось (никогда не словами сервиса)
settled-title = 🔔 Новости о вашем подарке, исход которого был неизвестен:
settled-admin-delivered = ✅ Доставлено: { $gift } для @{ $username }. Администраторы это проверили.
settled-admin-not-delivered = ❌ Не доставлено: { $gift } для @{ $username }. Администраторы это проверили; подарок можно отправить снова.

## Администраторам: решённое оповещение или сообщение /pending, запоздавший ответ, противоречие
admin-settled-title-delivered = ✅ Отмечено как доставленное: { $gift } для @{ $recipient }.
admin-settled-title-not-delivered = ❌ Отмечено как недоставленное: { $gift } для @{ $recipient }.
admin-settled-title-succeeded = ✅ Доставлено, по запоздавшему ответу сервиса: { $gift } для @{ $recipient }.
admin-settled-title-rejected = ❌ Отклонено, по запоздавшему ответу сервиса: { $gift } для @{ $recipient }.
admin-resolved-late = Решено собственным ответом сервиса ({ $outcome }), пришедшим уже после того, как исход отметили неизвестным.
admin-late-answer = Ответ сервиса: { $answer }
admin-late-settled-delivered = 📬 Запоздавший ответ сервиса решил неизвестный исход: { $gift } для @{ $recipient } доставлено.
admin-late-settled-refused = 📬 Запоздавший ответ сервиса решил неизвестный исход: { $gift } для @{ $recipient } отклонено, ничего не списано.
admin-late-settled-hint = Решать по этой покупке больше нечего, и покупки она больше не держит.
admin-late-contradiction-title = 🚨 Запоздавший ответ противоречит решению: { $gift } для @{ $recipient }.
admin-late-contradiction-was-not = Администратор { $admin } отметил её как недоставленную ({ $date }).
admin-late-contradiction-was = Администратор { $admin } отметил её как доставленную ({ $date }).
admin-late-contradiction-delivered = Подарок всё же доставлен. Заказчику сказали, что нет, и он мог подарить его снова: поищите в /purchases второй подарок тому же получателю. Решение остаётся в учёте, ответ сервиса сохранён рядом с ним.
admin-late-contradiction-refused = Сервис отклонил покупку: ничего не доставлено и не списано, хотя её отметили доставленной и заказчику так и сказали. Сообщите заказчику: он может подарить снова. Решение остаётся в учёте, ответ сервиса сохранён рядом с ним.

# Приложение администраторов (src/admin-app): /dashboard, кнопка меню и тексты страницы.
command-dashboard = Приложение администратора: расходы, покупки, решения
dashboard-button = 📊 Приложение администратора
dashboard-open = Приложение администратора: расходы, все покупки и решения, которые ждут вас.
dashboard-not-configured = Приложение администратора выключено: задайте ADMIN_APP_PORT и ADMIN_APP_URL (см. docs/admin-app.md).
app-title = Giftbot: администрирование
app-tab-overview = Обзор
app-tab-purchases = Покупки
app-loading = Загрузка…
app-overview-balance = Баланс кошелька
app-overview-balance-kept = последний сохранённый баланс: эта реплика не обращается к сервису
app-overview-balance-unknown = Баланс сейчас не удалось прочитать.
app-overview-today = Покупки за сегодня (UTC)
app-overview-stars-today = Stars
app-overview-premium-today = Подарки Premium
app-overview-purchases = Покупки
app-state-open = открыты
app-state-paused-admin = на паузе (администратор)
app-state-paused-breaker = на паузе: автомат остановил их после отказов сервиса
app-state-on-hold = приостановлены, пока не решены неизвестные исходы
app-overview-pending = Ждут вашего решения
app-overview-pending-none = Решений не ждёт ничего.
app-overview-breaker = Автомат
app-breaker-closed = не сработал
app-breaker-open = сработал: покупки на паузе
app-overview-lease = Реплика, которая отправляет
app-lease-here = эта
app-lease-other = другая реплика
app-lease-none = сейчас никакая
app-overview-backup = Последняя резервная копия
app-backup-none = с этого запуска не было
app-backup-not-kept = средствами самой базы данных (PostgreSQL)
app-chart-title = Доставлено за 30 дней
app-chart-stars = Stars
app-chart-premium = Месяцы Premium
app-chart-gifts = Подарки
app-chart-ton = Потрачено TON
app-chart-usdt = Потрачено USDT
app-action-pause = Приостановить покупки
app-action-resume = Возобновить покупки
app-giveaways = Розыгрыши
app-giveaways-none = Сейчас не отправляется ни один розыгрыш.
app-count-delivered = доставлено
app-count-refused = отказов
app-count-unknown = неизвестно
app-count-waiting = ждут
app-search-person = Покупатель: id или имя
app-search-recipient = Получатель
app-filter-status = Статус
app-filter-kind = Подарок
app-filter-any = любой
app-filter-from = С
app-filter-to = По
app-kind-stars = Stars
app-kind-premium = Premium
app-gift-stars = { $n } Stars
app-list-empty = Таких покупок нет.
app-list-found = Найдено
app-page-newer = ← Новее
app-page-older = Старше →
app-detail-back = ← К списку
app-detail-id = Номер покупки
app-detail-requester = Покупатель
app-detail-recipient = Получатель
app-detail-gift = Подарок
app-detail-status = Статус
app-detail-created = Создана
app-detail-sent = Отправлена
app-detail-finished = Завершена
app-detail-balance-before = Баланс до
app-detail-balance-now = Баланс сейчас
app-detail-cost = Стоимость
app-detail-tx = Транзакция
app-detail-answer = Ответ сервиса
app-detail-outcome = Подробности исхода
app-detail-settled = Решено администратором
app-detail-history = История статусов
app-detail-meanwhile = Другие покупки в это время
app-detail-giveaway = Розыгрыш
app-settle-delivered = ✅ Доставлено
app-settle-not-delivered = ❌ Не доставлено
app-error-network = Не удалось связаться с ботом. Попробуйте ещё раз.
app-error-expired = Сеанс истёк или недействителен: откройте приложение снова из меню бота.
app-error-forbidden = Это приложение только для администраторов бота.
app-done-settled-delivered = Отмечено как доставлено. Покупателю и другим администраторам сообщено.
app-done-settled-not-delivered = Отмечено как не доставлено. Покупателю и другим администраторам сообщено.
app-refused-standby = Эта реплика в резерве: решения принимает реплика, которая отправляет покупки. Попробуйте через минуту.
app-refused-rate = Слишком много действий за минуту: подождите немного.
app-refused-not-found = Такой покупки или розыгрыша нет.

## Premium through Telegram, paid from the bot's own Telegram Stars (docs/telegram-premium.md)
summary-method-stars = Оплата: { $stars } Telegram Stars с собственного баланса бота (через Telegram, без кошелька)
summary-stars-balance = Telegram Stars у бота: { $stars }
summary-stars-balance-unknown = Telegram Stars у бота: сейчас недоступно
summary-stars-short = ⚠️ У бота меньше Telegram Stars, чем стоит этот подарок, поэтому подтверждение будет отклонено, пока администраторы не пополнят баланс (ничего не будет потрачено).
outcome-proved = Ответ Telegram потерялся, но по транзакциям Telegram Stars бота видно, что подарок сделан.
refusal-not_enough_stars = у бота { $stars } Telegram Stars, а этот подарок стоит { $needed }. Администраторы могут пополнить баланс.
refusal-not_enough_stars-group = у бота сейчас недостаточно Telegram Stars для этого подарка.
refusal-stars_unavailable = не удалось прочитать баланс Telegram Stars бота. Нажмите «Подтвердить» ещё раз чуть позже.
premium-unnamed = Я могу дарить Premium только тем, чей аккаунт Telegram мне известен: @{ $username } мне не писал(а), а угадывать, чьё это имя, я не стану. Попросите этого человека отправить мне /start или (в группе) ответьте на его сообщение командой /premium.
settled-proved = ✅ Доставлено: { $gift } для @{ $username }. Ответ Telegram потерялся, но по транзакциям Telegram Stars бота видно, что подарок сделан.
admin-settled-title-proved = ✅ Доставлено, как показывают транзакции Stars бота: { $gift } для @{ $recipient }.
admin-resolved-proved = Улажено без администратора: это доказывает транзакция Telegram Stars бота { $id }.
admin-proved-news = 📒 Ответ Telegram на подарок Premium потерялся, но по транзакциям Telegram Stars бота видно, что он сделан: { $gift } для @{ $recipient }, улажено как доставленное.
admin-proved-transaction = Транзакция { $id }: { $stars } Stars пользователю { $user } на { $months } мес., { $date }.
admin-proved-balances = Stars бота до подарка и после: { $before } → { $after }.
admin-proved-hint = По ней больше нечего улаживать, и покупки она больше не держит.
admin-evidence-stars-paid = Оплачено через Telegram из Telegram Stars бота: { $price } Stars (кошелёк не участвует).
admin-evidence-stars-recipient = Id получателя в Telegram: { $id }
admin-evidence-stars-balance = Stars бота до подарка: { $before }; сейчас: { $now }.
admin-evidence-stars-search = Транзакции Stars бота прочитаны { $date } (записей: { $read }{ $complete ->
    [yes] , весь список
   *[no] , не весь список
}): подарков Premium этому пользователю на этот срок после запроса: { $matches }, из них объяснены другими подарками: { $others }. Доказательства, что этот подарок сделан, нет.
admin-evidence-stars-search-unavailable = Транзакции Stars бота не удалось прочитать { $date }: { $detail }.
admin-evidence-stars-search-none = Транзакции Stars бота для неё ещё не читались.
admin-evidence-stars-hint = При каждом показе транзакции читаются заново: найденный там подарок улаживается как доставленный сам. Если у получателя есть Premium от этого подарка, отметьте «доставлено»; иначе «не доставлено» (ничего не отправляется повторно).
admin-balance-stars = Telegram Stars (собственные бота, для Premium через Telegram): { $stars }
admin-balance-stars-unavailable = Telegram Stars (собственные бота): сейчас недоступно
admin-low-balance-stars = ⚠️ У бота заканчиваются Telegram Stars: { $value } (оповещение ниже { $threshold }). Premium через Telegram отклоняется, когда подарок дороже баланса; /topup пополняет Stars.
report-stars = Telegram Stars бота сейчас: { $stars }; пополнено за тот день: { $added } (платежей: { $count }).
report-stars-unknown = Telegram Stars бота сейчас: неизвестно; пополнено за тот день: { $added } (платежей: { $count }).
command-topup = Пополнить Telegram Stars бота
command-refund = Вернуть ошибочное пополнение
topup-off = Premium через Telegram выключен (PREMIUM_VIA = service): собственные Telegram Stars бота не используются, пополнять нечего.
topup-usage = Отправьте /topup и число Stars от { $min } до { $max }, например /topup 1000. Вы платите со своего аккаунта Telegram; Stars поступают на баланс бота, из которого оплачивается Premium через Telegram.
topup-title = Telegram Stars для бота
topup-description = { $stars } Telegram Stars на собственный баланс бота, из которого оплачивается Premium через Telegram.
topup-label = { $stars } Telegram Stars
topup-not-admin = Пополнять баланс бота могут только его администраторы.
topup-paid = ⭐ Спасибо: на баланс бота зачислено { $stars } Telegram Stars (платёж { $charge }). Теперь у бота { $balance } Stars.
topup-paid-balance-unknown = ⭐ Спасибо: на баланс бота зачислено { $stars } Telegram Stars (платёж { $charge }).
topup-paid-admins = ⭐ { $who } пополнил(а) бота на { $stars } Telegram Stars (платёж { $charge }).
topup-refused = Этот счёт не из тех, что бот выставляет для пополнения баланса.
refund-usage = Отправьте /refund и id платежа из списка, например /refund { $example }, чтобы вернуть пополнение тому, кто его оплатил.
refund-list-empty = Возвращать нечего: пополнений нет.
refund-list-title = Пополнения, сначала новые:
refund-list-line = { $date }: { $stars } Stars от { $who }, платёж { $charge }{ $refunded ->
    [yes] , возвращено
   *[no] {""}
}
refund-unknown = Пополнения с таким id платежа нет.
refund-already = Это пополнение уже возвращено.
refund-done = ↩️ Возвращено: { $stars } Telegram Stars вернулись к { $who } (платёж { $charge }).
refund-failed = Telegram отказал в возврате: { $reason }
