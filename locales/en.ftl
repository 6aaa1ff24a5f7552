# chainpulse — English, the default locale: every message the bot writes.
# A new language is one new file next to this one (e.g. de.ftl) with every id below.
# Token names, symbols, addresses and chain ids are data: they are never translated.

language-name = English

## The core: budgets, unknown commands

core-unknown-command = I don't know /{ $name }; /help lists what I can do.
core-unknown-command-empty = Write the command right after the /, like /price pepe; /help lists what I can do.
core-budget-user = You have sent more commands this minute than I take from one person; try again in { $seconds ->
    [one] 1 second
   *[other] { $seconds } seconds
}.
core-budget-chat = This chat has sent more commands this minute than I take from one chat; try again in { $seconds ->
    [one] 1 second
   *[other] { $seconds } seconds
}.
core-sorry = Something went wrong on my side.

## Failures

failure-sorry = Something went wrong on my side; it has been logged.
failure-not-answering = The market service is not answering; try again in a minute.
failure-server = The market service is having trouble; try again in a minute.
failure-envelope = The market service answered with an error; try again in a minute.
failure-malformed = The market service sent an answer I could not read; try again in a minute.
failure-shape = The market service sent data in a shape I do not understand; it has been logged.
failure-rate-limited = The market service is busy right now; try again in a few seconds.
failure-busy = The market service is busy; try again in a few seconds.
failure-quota = The market service's daily quota is spent; data comes back when it resets.
failure-unauthorized = The bot's market data key was refused; tell the bot's operator.
failure-not-found = The market service does not know that token or pair.
failure-bad-request = The market service refused that request; check the chain and the address.
store-cant-read = I can't reach my database right now; try again in a minute.
failure-busy-wait = The market service is busy. Try again in { $wait }.
failure-busy-rate-wait = The market service is busy — this bot may ask it { $rps ->
    [one] 1 time
   *[other] { $rps } times
} a second. Try again in { $wait }.
failure-rate-limited-wait = The market service is busy and asked this bot to wait. Try again in { $wait }.
failure-quota-spent-wait = The market service's daily quota is spent; data comes back at { $clock } UTC, in { $wait }.
failure-quota-saving-wait = This bot is saving its daily market quota for later; try again in { $wait }.
wait-second = about a second
wait-seconds = about { $n } s
wait-minutes = about { $n } min
wait-hour = about an hour
wait-hours = about { $n } h

## Data older than asked for, because the market service did not answer in time

stale-note = as of { $clock } UTC, { $ago } — { $why }
stale-ago-seconds = { $n } s ago
stale-ago-minutes = { $n } min ago
stale-ago-hours = { $n } h ago
stale-ago-days = { $n ->
    [one] 1 day ago
   *[other] { $n } days ago
}
stale-why-slow = the market service is slow
stale-why-busy = the market service is busy
stale-why-quota = the market service's daily quota is spent
stale-why-saving = this bot is saving its daily market quota for later
stale-why-failing = the market service is failing

## /settings

settings-title = Chat settings
settings-saved = Saved: { $what }
settings-default-chain = Default chain
settings-chain-unset = not set ({ $fallback })
settings-autodetect = Auto-detect pasted addresses
settings-autodetect-default = platform default (on in private chats)
settings-autodetect-default-private = on (the default in private chats)
settings-autodetect-unseen = on, but I cannot read pasted text here (see /autodetect)
settings-on = on
settings-off = off
settings-timezone = Time zone
settings-language = Language
settings-language-auto-app = { $name } (follows your app's language)
settings-language-auto-server = { $name } (follows the server's language)
settings-language-auto-default = { $name } (the default for groups)
settings-how = Admins change them with /settings chain <chain|none>, /settings autodetect on|off, /settings timezone <Area/City>, /settings language { $languages }|auto, /settings calls on|off.
settings-how-private = Change them with /settings chain <chain|none>, /settings autodetect on|off, /settings timezone <Area/City>, /settings language { $languages }|auto.
settings-saved-no-chain = no default chain
settings-saved-chain = default chain { $chain }
settings-saved-timezone = time zone { $zone }
settings-timezone-digests-kept = { $count ->
    [one] The digest set before keeps its time zone ({ $zones }): subscribe to its chain again to move it.
   *[other] The { $count } digests set before keep their time zones ({ $zones }): subscribe to their chains again to move them.
}
settings-saved-language = language { $name }
settings-saved-language-app = language follows your app's language
settings-saved-language-server = language follows the server's language
settings-saved-language-default = language back to the default
settings-bad-timezone = "{ $zone }" is not a time zone I know; use a name like Europe/Berlin or UTC.
settings-bad-language = I speak { $languages }; e.g. /settings language zh.
settings-say-value = Say what to set { $setting } to, e.g. /settings { $setting } { $example }.
settings-not-admin = Only this chat's admins can change its settings.

## The console and `chainpulse ask`

ask-nothing = Type a command such as /price pepe, or paste a token address.
source-demo = demo data (sandbox)
source-live = Token Market Data Service

## Commands: descriptions for /help and the command menus (en must match the registry)

cmd-price = Price and 24h change of one or more tokens (up to 20)
cmd-price-tokens = Symbols, addresses or links; commas separate
cmd-token = The token card: price, market cap, volume, pairs, links and a risk verdict
cmd-token-token = Symbol, address, address-chain or a link
cmd-risk = Contract risk: honeypot, taxes, owner, mint, proxy, locks and a 🟢/🟡/🔴 verdict
cmd-risk-token = Symbol, address, address-chain or a link
cmd-holders = Top holders with share, value and labels, and the top-10 concentration
cmd-holders-token = Symbol, address, address-chain or a link
cmd-holders-n = How many holders to list (default 10)
cmd-swaps = The latest swaps of a token's main pair: buy or sell, size, wallet, age
cmd-swaps-token = A token (its main pair is used) or a pair as <pair>-<chain>
cmd-chart = Candlestick chart of a token or pair: /chart pepe 4h
cmd-chart-token = Symbol, address, address-chain, pair id or pool link
cmd-chart-interval = Candle length: 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 3d, 1w, 1M; default 1h
cmd-chart-category = u: USD (default), r: in the pair's quote token, m: in the chain's main token
cmd-trending = Trending tokens on a chain, page by page
cmd-trending-chain = Chain name; default the chat's chain
cmd-trending-page = Page number, from 1
cmd-trending-size = Tokens per page, 1 to 20; default 10
cmd-top = A ranked token list: hot, meme, gainer, loser, new, ai, …
cmd-top-topic = Which list; /topics shows them all
cmd-topics = The ranked token lists you can open with /top
cmd-search = Find tokens by symbol or address, most liquid first
cmd-search-keyword = Symbol or contract address
cmd-search-chain = Only this chain
cmd-chains = The chains the market data covers
cmd-main = The main tokens of a chain (native, wrapped, stablecoins)
cmd-main-chain = Chain name, e.g. eth, bsc, solana
cmd-pairs = The trading pairs of a token (v1, up to 10)
cmd-pairs-token = Symbol, address, address-chain or a link
cmd-liquidity = Recent liquidity adds and removes of a pair (v1)
cmd-liquidity-pair = Pair address, or <pair>-<chain>
cmd-amm = The busiest pairs of a DEX on a chain (v1)
cmd-amm-dex = The DEX's name as the service spells it, e.g. uniswapv2
cmd-amm-chain = Chain name
cmd-check = Contract check (v1) of a contract on bsc, eth, arbitrum or core
cmd-check-chain = Chain of the contract
cmd-check-contract = Contract address (0x…)
cmd-settings = Show this chat's settings; admins change default chain, auto-detect, time zone, language, card chart, calls
cmd-settings-setting = Which setting to change
cmd-settings-value = The new value
cmd-autodetect = Answer pasted addresses and links with the token card (admins): on or off
cmd-autodetect-state = on or off
cmd-alert = Tell this chat when a token crosses a price or moves by a percent (admins in groups)
cmd-alert-token = Symbol, address or link
cmd-alert-rule = above, below or move
cmd-alert-value = A price such as 0.0042, $1.5k or 2M; for move a percent such as 10%
cmd-alerts = This chat's price alerts, closest to firing first
cmd-rearm = Arm an alert again from the current price (admins in groups)
cmd-rearm-alert = The alert's number in /alerts
cmd-unalert = Delete one of this chat's alerts by its number, or all (admins in groups)
cmd-unalert-alert = The alert's number in /alerts, or all
cmd-watch = Add tokens to this chat's watchlist (admins in groups)
cmd-watch-tokens = Symbols, addresses or links; commas separate
cmd-unwatch = Remove a token from this chat's watchlist, or all (admins in groups)
cmd-unwatch-token = A watched token, or all
cmd-watchlist = This chat's watched tokens: price, 24h change and data age
cmd-subscribe = Post a chain's trending digest here on a schedule (admins)
cmd-subscribe-chain = Chain of the trending list
cmd-subscribe-schedule = { $intervals ->
    [none] daily HH:MM or a cron expression; then top N
   *[other] every { $intervals }, daily HH:MM, or a cron expression; then top N
}
cmd-unsubscribe = Stop a chain's digest here, or all of them (admins)
cmd-unsubscribe-chain = A chain, all, or launches and a chain
cmd-unsubscribe-more = More chains
cmd-subscriptions = The digests this chat receives (admins)
cmd-help = What I can do, or how to use one command
cmd-help-command = A command name, e.g. price
cmd-start = Say hello and show a few things to try
cmd-settings-setting-chain = chain
cmd-settings-setting-autodetect = autodetect
cmd-settings-setting-timezone = timezone
cmd-settings-setting-language = language
cmd-autodetect-state-on = on
cmd-autodetect-state-off = off
cmd-alert-rule-above = above
cmd-alert-rule-below = below
cmd-alert-rule-move = move
cmd-chart-category-u = u: USD
cmd-chart-category-r = r: quote token
cmd-chart-category-m = m: main token

## /help and /start

help-title = What I can do
help-tokens = A token can be a symbol (pepe), an address, address-chain, or a pasted link. /help <command> shows examples.
help-no-command = There is no /{ $name }; /help lists every command.
help-optional = { $name } (optional)
help-choices = { $description }: { $choices }
help-examples = Examples: { $examples }
help-aliases = Also: { $aliases }
start-title = Hi, I'm chainpulse
start-what = I bring on-chain token markets into this chat: prices, token cards, contract risk, top holders, swaps, trending and ranked lists.
start-try = Try /price pepe, /token <address>, /risk <token>, /trending solana or /top meme. Paste a contract address and I show its card. /help lists everything.

## Buttons

button-trending = Trending
button-top-hot = Top hot
button-chains = Chains
button-help = Help

## Digests: /subscribe, /unsubscribe, /subscriptions, the posts

digest-not-admin = Only this chat's admins can manage digests.
digest-bad-top = Write the size as "top N" at the end, with N from 1 to { $max }.
digest-not-here = Digests are posted in Telegram groups and Discord channels, not here: add the bot to one and /subscribe there.
digest-too-many = This chat already has { $count } digests, the most it may have; /unsubscribe one first.
digest-subscribed = Subscribed: the { $chain } trending digest, { $schedule }, top { $top }.
digest-how-to-stop = /unsubscribe { $chain } stops it.
digest-none = This chat has no digests.
digest-none-on = This chat has no { $chain } { $count ->
    [one] digest
   *[other] digests
}.
digest-none-launches-kept = This chat has no digests. Its launch posts on { $chains } go on: /unsubscribe launches <chain> stops them.
digest-all-alone = "all" stops every digest: write it alone, or name the chains to stop.
digest-launches-kept = Launch posts on { $chains } go on: /unsubscribe launches <chain> stops them.
digest-stopped-all = { $count ->
    [one] Stopped the one digest here.
   *[other] Stopped all { $count } digests here.
}
digest-stopped = Stopped the { $chain } { $count ->
    [one] digest
   *[other] digests
} here.
digest-how-to-start = An admin can start one with /subscribe solana.
digest-list-title = Digests in this chat ({ $count } of { $max })
digest-col-chain = Chain
digest-col-schedule = Schedule
digest-col-top = Top
digest-col-state = State
digest-paused = paused: I may not post here
digest-active = active
schedule-bad-every = "every { $every }" is not a schedule I know: use every 15m, 30m, 1h, 4h or 12h.
schedule-bad-daily = Write a daily time as daily HH:MM, for example daily 09:30.
schedule-unknown = That schedule is not one I understand: use every 1h, daily 09:30, or a 5-field cron expression.
schedule-too-often = Digests can be at most every { $minutes } minutes, to spare the data service.
digest-paused-title = The { $chain } digest is paused: I may not post here.
digest-paused-how = Give me the right to send messages, then an admin can /subscribe { $chain } again.

## Ages and times

age-just-now = just now
age-y = { $n }y
age-d = { $n }d
age-h = { $n }h
age-m = { $n }m
age-s = { $n }s
age-pair = { $first } { $second }
age-ago = { $age } ago
age-as-of = as of { $time } ({ $ago })
console-image = [image: { $alt } ({ $file }, { $kb } KB)]
console-stale = ⚠ stale: this is older data

## Adapters: footers and notes

telegram-unknown-time = an unknown time
telegram-field-sep = {": "}
telegram-as-of = as of { $time }
telegram-stale = stale: these are the last known figures
telegram-cut-short = (cut short: the full answer does not fit in one message)
discord-old = { $age } old
discord-data-age = data { $age }
discord-stale = stale: showing the last data I have
discord-table-more = … { $count } more

## Price alerts and watchlists

alert-admins-only = Only this chat's admins can manage alerts.
watch-admins-only = Only this chat's admins can change the watchlist.
alert-price-missing = Which price? Write it as 0.0042, $1.5k or 2M.
alert-price-decimal-comma = “{ $typed }”: write decimals with a point, e.g. { $fixed }.
alert-price-not-a-price = “{ $typed }” is not a price; write it as 0.0042, $1.5k or 2M.
alert-price-zero = The price must be above 0.
alert-price-too-big = That price is beyond any token's; check the number of zeros.
alert-percent-not-a-percent = “{ $typed }” is not a percent; write it as 10% or 2.5%.
alert-percent-zero = A move of 0% would fire at every check; choose a percent above 0.
alert-percent-too-big = A move can be at most { $max }%.
alert-no-price = The service has no current price for { $symbol }, so there is nothing to set an alert on.
alert-wrong-side-above = { $symbol } is already at or above { $level } (now { $price }); choose a level above the current price.
alert-wrong-side-below = { $symbol } is already at or below { $level } (now { $price }); choose a level below the current price.
alert-full = This chat already has { $count } alerts, the most it may have is { $max }; /unalert one first.
alert-set = Alert #{ $number } set: { $symbol } { $rule }.
alert-armed = Alert #{ $number } armed: { $symbol } { $rule }.
alert-armed-from = Alert #{ $number } armed: { $symbol } { $rule } from { $price }.
alert-which-rearm = Which alert? Give its number from /alerts, e.g. /rearm 2.
alert-no-such = This chat has no alert #{ $number }; /alerts lists them.
alert-rule-above = above { $price }
alert-rule-below = below { $price }
alert-rule-move = moves { $percent }% either way
alert-field-now = Now
alert-field-distance = Distance
alert-distance = { $percent }% to go
alert-distance-due = due at the next check
alert-explain-move = It fires each time the price has moved that far from the price it last fired on.
alert-explain-level = It fires once when the price crosses the level, then waits to be re-armed.
alert-rearmed-past-above = { $symbol } is at or above the level now, so it fires once the price has gone back under it and rises through it again.
alert-rearmed-past-below = { $symbol } is at or below the level now, so it fires once the price has gone back over it and falls through it again.
alert-button-alerts = Alerts
alert-button-delete = Delete
alert-button-card = Card
alert-button-chart = Chart
alert-button-rearm = Re-arm
alert-fired-above = Alert #{ $number }: { $symbol } is above { $level }
alert-fired-below = Alert #{ $number }: { $symbol } is below { $level }
alert-fired-move = Alert #{ $number }: { $symbol } moved { $change }
alert-field-token = Token
alert-token-on = { $symbol } on { $chain }
alert-field-alert = Alert
alert-numbered = #{ $number }: { $rule }
alert-field-price = Price
alert-field-last-seen = Last seen
alert-field-anchor = Anchor
alert-field-time = Time
alert-fired-move-note = It stays armed from this price; it fires again on the next move of that size.
alert-fired-level-note = It is now disarmed; Re-arm sets it again from the current price.
alert-paused = { $count ->
    [one] Alert { $numbers } is paused: { $symbol } on { $chain } has had no price for 24 hours.
   *[other] Alerts { $numbers } are paused: { $symbol } on { $chain } has had no price for 24 hours.
}
alert-paused-how = They wake up by themselves when the service prices it again; /alerts shows them, /unalert removes them.
alerts-none = This chat has no price alerts.
alerts-none-how = Set one with /alert pepe above 0.000012 or /alert wif move 10%.
alerts-title = Price alerts in this chat ({ $count } of { $max })
alerts-col-token = token
alerts-col-rule = rule
alerts-col-now = now
alerts-col-to-go = to go
alerts-state-disarmed = disarmed
alerts-state-fired = fired { $time }
alerts-state-paused = paused: no price for 24h
alerts-state-unpriced = no price now
alerts-state-waiting = to come back
alerts-state-due = due
alerts-more = And { $count } more, furthest from firing.
alerts-delete-hint = Delete any alert with /unalert and its number.
alerts-rearm-hint = Fired alerts wait for /rearm and their number.
unalert-none = This chat has no alerts.
unalert-all = { $count ->
    [one] Deleted the one alert here.
   *[other] Deleted all { $count } alerts here.
}
unalert-which = Which alert? Give its number from /alerts, or all, e.g. /unalert 2.
unalert-done = Deleted alert #{ $number }.
unalert-already-gone = Alert #{ $number } was already deleted.
watch-which = Which token? e.g. /watch pepe
watch-too-many = I add at most { $max } tokens at once; you named { $count }.
watch-full = This chat's watchlist already has { $max } tokens, the most it may have; /unwatch one first.
watch-already = Already watched: { $names }.
watch-refused = Not added, the watchlist holds at most { $max }: { $names }.
watch-nothing-new = Nothing new to watch.
watch-added = Watching { $names }.
watch-show-hint = /watchlist shows them all.
unwatch-empty = This chat's watchlist is already empty.
unwatch-all = Removed all { $count } tokens from the watchlist.
unwatch-missing = { $typed } is not on this chat's watchlist; /watchlist shows it.
unwatch-done = Stopped watching { $symbol } on { $chain }.
unwatch-which-chain = This chat watches { $symbol } on more than one chain; say which: { $chains }.
watchlist-none = This chat watches no tokens yet.
watchlist-none-how = Add some with /watch pepe wif bonk.
watchlist-title = Watchlist ({ $count } of { $max }), by 24h change
watchlist-col-token = token
watchlist-col-chain = chain
watchlist-col-price = price
watchlist-col-24h = 24h
watchlist-col-age = age
watchlist-no-price = no price
watchlist-more = And { $count } more with smaller moves.
adapter-button-expired = This button has expired — run the command again.
discord-nothing-detected = I found no contract address or token link in that message.
discord-unknown-command = I no longer know that command; an admin should run `chainpulse discord register` again.
discord-budget = You have sent more commands this minute than I take from one person; try again shortly.
discord-deferred-failed = Sorry, I could not show that answer; try again in a moment.
# The message menu command's name as Discord shows it (at most 32 characters).
discord-token-card = Token card

inline-hint = Type a token's symbol or address
inline-none = No token matches “{ $query }”
inline-busy = Too many requests; try again in { $seconds } s
inline-unavailable = The market service is not answering; try again shortly
telegram-fallback = Sorry, I could not show that answer here. It has been logged.
console-hint = Type a command such as /price pepe, paste a token address, or /help.
console-welcome = chainpulse console: { $hint } Numbers press buttons; quit with Ctrl-D or Ctrl-C.
console-no-buttons = There are no buttons to press.
console-choose = Choose a number from 1 to { $count }.

## Auto-detect

autodetect-me = me
autodetect-telegram-privacy = Telegram only shows me commands in this group while my privacy mode is on, so I cannot see pasted addresses yet. To fix it, open @BotFather, send /setprivacy, choose { $me } and pick Disable, then remove me from this group and add me again (Telegram applies the change only when I join) — or make me an admin of this group.
autodetect-discord-dm = I do not read pasted text in direct messages here; use Apps → Token card on a message instead.
autodetect-discord-intent = Auto-detect in channels needs the message content intent, which this bot runs without; use Apps → Token card on a message instead.
autodetect-how = Paste a contract address or a DEX or explorer link and I will answer with its token card.
autodetect-who = An admin turns it on or off with /autodetect on or /autodetect off.
autodetect-who-private = Turn it on or off with /autodetect on or /autodetect off.
autodetect-now-on = Auto-detect is now on in this chat
autodetect-now-off = Auto-detect is now off in this chat
autodetect-is-on = Auto-detect is on in this chat
autodetect-is-off = Auto-detect is off in this chat
autodetect-on-off = Auto-detect is either on or off, e.g. /autodetect on.

## Risk: verdicts and findings

list-sep = {", "}
risk-no-data = ⚪ No risk data — this is not a clean bill
risk-high = 🔴 High risk: { $reasons }
risk-caution = 🟡 Caution: { $reasons }
risk-low-report = 🟢 No red flags in the contract report
risk-record-only = ⚪ The token record raises no flag, but without the contract report this is not a clean bill
risk-reasons-more = { $reasons } and { $count } more
risk-honeypot = honeypot
risk-cannot-sell-all = cannot sell all
risk-cannot-buy = cannot buy
risk-buy-tax = buy tax { $tax }
risk-sell-tax = sell tax { $tax }
risk-hidden-owner = hidden owner
risk-selfdestruct = can self-destruct
risk-creator-honeypots = creator made honeypots before
risk-honeypot-unchecked = honeypot not checked
risk-mintable = mintable
risk-owner-not-renounced = owner not renounced
risk-owner-take-back = owner can take back ownership
risk-proxy = upgradeable proxy
risk-blacklist = blacklist method
risk-whitelist = whitelist method
risk-cooldown = trading cooldown
risk-pausable = transfers can be paused
risk-lp-locked = LP locked { $share }
risk-top10-hold = top 10 hold { $share }
risk-creator-holds = creator holds { $share }
risk-score = risk score { $score }/100
risk-flagged = flagged high-risk
risk-yes-bad = ⚠ yes
risk-yes-honeypot = ⛔ yes
risk-no = no
risk-not-checked = not checked
risk-renounced = renounced
risk-label-honeypot = Honeypot
risk-label-tax = Buy / sell tax
risk-label-mintable = Mintable
risk-label-owner = Owner
risk-label-proxy = Proxy
risk-label-lists = Blacklist / whitelist
risk-label-cooldown = Trading cooldown
risk-label-pausable = Pausable transfers
risk-label-hidden-owner = Hidden owner
risk-label-lp-locked = LP locked
risk-label-token-locked = Token locked
risk-label-top10 = Top 10 holders
risk-label-creator = Creator share
risk-no-report = The service has no contract report for this token. Trade it only if you can check the contract yourself.
risk-title = Risk: { $symbol } · { $chain }
risk-service-note = The service says: { $text }

## Shared labels and buttons

button-refresh = ↻ Refresh
button-card = Card
button-risk = Risk
button-holders = Holders
button-swaps = Swaps
link-website = Website
link-blog = Blog
link-whitepaper = Whitepaper
button-chart = Chart
button-next = Next ▶
button-previous = ◀ Previous
col-token = token
col-chain = chain
col-price = price
col-24h = 24h
col-liquidity = liquidity
collision-original = this is the original contract, on { $chain }
collision-liquid = this is the most liquid one, on { $chain }
collision-address = This address is a token on { $count } chains; { $which }.
collision-symbol = { $count } tokens are called { $symbol }; { $which }.
collision-keyword = { $count } tokens match "{ $keyword }"; { $which }.
collision-partial = No token is called "{ $keyword }"; the most liquid close match is { $symbol } on { $chain }.
resolve-partial-refused = No token is called "{ $keyword }"; the closest is { $symbol } on { $chain }. To use it, name it exactly: { $symbol }.
collision-other = { $symbol } on { $chain } ({ $address }, liquidity { $liquidity })
collision-sep = {"; "}
collision-others = { $head } Others: { $others }.
collision-others-more = { $head } Others: { $others }; and { $more } more.

## /price, /holders

price-which = Which token? e.g. /price pepe
price-too-many = I price at most { $max } tokens at once; you asked for { $count }.
price-none = no price
price-none-why = “no price”: the service has no current price for it (unknown or no trading).
price-late = Not looked up in time, { $why }: { $tokens }.
price-title = Prices ({ $count })
holders-contract = contract
holders-none = The service has no holder list for this token (it happens for very large tokens, and for tokens it does not track closely). That says nothing about its risk.
holders-col-holder = holder
holders-col-share = share
holders-col-value = value
holders-col-label = label
holders-top10 = The top 10 holders own { $share } of the supply{ $lp ->
    [yes] {" "}(LP pools included)
   *[no] {""}
}.
holders-top10-warning = ⚠ The top 10 holders own { $share } of the supply{ $lp ->
    [yes] {" "}(LP pools included)
   *[no] {""}
}: a few wallets can move the price.
holders-title = Top holders: { $symbol } · { $chain }

## Addresses, chains and token resolution

address-evm-bad-digit = That looks like an EVM address, but "{ $digit }" is not a hex digit.
address-tx-hash = That has 64 hex digits: it looks like a transaction hash, not a token address (40 hex digits).
address-evm-length = That looks like an EVM address, but it has { $count ->
        [one] 1 hex digit
       *[other] { $count } hex digits
    }, not 40.
address-tron-bad-char = That looks like a Tron address, but it contains "{ $char }", which addresses never use.
address-solana-bad-char = That looks like a Solana address, but it contains "{ $char }", which addresses never use.
address-solana-length = That looks like a Solana address, but it has { $count } characters, not 32 to 44.
link-no-address = I can't find a token address in that link.
resolve-wrong-family = { $address } is not { $family ->
    [solana] a Solana
    [tron] a Tron
   *[evm] an EVM
} address, so it can't be on { $chain }.
resolve-nothing-at-on = No token or pair found at { $address } on { $chain }.
resolve-unknown-chain = "{ $chain }" is not a chain I know. Try one of: { $list }.
resolve-nothing-at = No token found at { $address }.
resolve-empty = Send a token symbol, address or link.
resolve-no-match-on = No token matches "{ $keyword }" on { $chain }.
resolve-no-match = No token matches "{ $keyword }".
chain-unknown = "{ $chain }" is not a chain I know; try one of: { $known }.
chain-none-listed = The market service lists no chains right now; try again later.

## Lists: /trending, /top, /topics, /search, /chains, /main, /pairs, /liquidity, /amm, /check

trending-pages = Trending on { $chain } has { $last ->
    [one] one page
   *[other] pages 1 to { $last }
}; choose one of those.
trending-pages-at-most = Trending on { $chain } has { $last ->
    [one] one page
   *[other] pages 1 to { $last }
} at most; choose one of those.
trending-title = Trending on { $chain } · page { $page }
trending-title-of = Trending on { $chain } · page { $page } of { $pages }
trending-nothing = Nothing is trending on this chain right now.
trending-past-end = No more trending tokens; this page is past the end.
# A digest row's movement since the previous digest: the token was not in it.
trending-new = new
col-move = move
top-title = Top: { $topic }
top-empty = This list is empty right now.
topics-title = Ranked lists ({ $count })
topics-col-topic = topic
topics-col-name = name
topics-how = Open one with /top <topic>, e.g. /top meme.
search-what = Search for what? e.g. /search pepe
search-too-long = That keyword is too long; I search for at most { $max } characters.
search-title = Search: { $keyword }
search-title-on = Search: { $keyword } on { $chain }
search-none = No token matches "{ $keyword }".
search-none-on = No token matches "{ $keyword }" on { $chain }.
search-how = Most liquid first; press a number to open its card.
chains-title = Supported chains ({ $count })
chains-col-id = id
chains-col-name = name
chains-how = Main tokens of a chain: /main <chain>. Contract checks (/check) cover { $chains }.
chains-button-main = Main: { $chain }
main-title = Main tokens on { $chain }
main-none = The service lists no main tokens for this chain.
col-pair = pair
col-dex = dex
col-address = address
col-volume-24h = 24h volume
col-age = age
col-size = size
col-wallet = wallet
pairs-title = Pairs: { $symbol } · { $chain }
pairs-none = The service lists no pairs for this token.
liquidity-not-pair = "{ $typed }" is not a pair address.
liquidity-title = Liquidity: { $pair }
liquidity-none = No liquidity records for this pair.
liquidity-col-kind = kind
liquidity-kind-add = add
liquidity-kind-remove = remove
amm-bad-name = A DEX name has letters, digits, dots, dashes or underscores only, e.g. uniswapv2.
amm-unknown = The service knows no DEX "{ $dex }" on { $chain }: check its spelling, e.g. uniswapv2.
amm-title = { $dex } on { $chain }: busiest pairs
amm-none = The service lists no pairs for this DEX on this chain.
check-not-contract = "{ $contract }" is not a contract address on { $chain }.
check-title = Contract check: { $contract } · { $chain }

## /swaps and the token card

swaps-pair = pair { $pair } · { $chain }
swaps-no-pair = { $symbol } has no trading pair I can show swaps for.
swaps-buy = 🟢 buy
swaps-sell = 🔴 sell
swaps-not-found = No token or pair found for "{ $typed }".
swaps-title = Latest swaps: { $target }
swaps-none = No swaps in this pair recently.
swaps-col-side = side
card-audited = audited
card-not-audited = not audited
card-price = Price
card-market-cap = Market cap
card-holders = Holders
card-change = Change 5m / 1h / 4h / 24h
card-buys-sells = Buys / sells 24h
card-age = Age
card-audit = Audit
card-main-pair = Main pair
card-main-pair-value = { $pair } on { $dex } ({ $address })
card-address = Address
card-report-age = contract report from { $ago }

## /chart (the caption; the picture's own words stay English)

chart-bad-interval = "{ $interval }" is not an interval I chart; choose one of: { $allowed } (1M is a month).
chart-no-pair-category = { $symbol } has no trading pair to chart in { $category } terms; /chart { $id } shows USD.
chart-in-unit = in { $unit }
chart-in-quote = in the quote token
chart-in-main = in the chain's main token
chart-short-history = { $age } of history: { $finer } candles, not { $asked }
chart-note = { $note }.
chart-busy = Charts are busy, try again in a moment.
chart-which = Which token? e.g. /chart pepe 1h
chart-no-trades = No trades in this range: the service has no { $interval } candles for { $name }.
chart-alt-empty = Empty chart of { $name } on { $chain }, { $interval } candles: no trades in this range.
chart-last = Last
chart-high = High
chart-low = Low
chart-range = Range
chart-range-value = { $count } × { $interval } ({ $span })
chart-alt = Candlestick chart of { $name } on { $chain }, { $count } { $interval } candles over { $span }{ $unit ->
    [none] {""}
   *[other] , { $unit }
}: last { $last }, high { $high }, low { $low }.
chart-not-drawn = The chart could not be drawn right now; try again in a minute.

## Reading commands

args-message-too-long = That message is too long ({ $length } characters); I read at most { $max }.
args-message-control = That message has control characters in it; please type it again as plain text.
args-quote-open = A quote is not closed; end it with { $closing }.
args-too-many-words = That is too many words for one command; I take at most { $max }.
args-word-too-long = One of those words is { $length } characters long; I take at most { $max }.
args-word-control = That has control characters in it; please type it again as plain text.
args-hint = Usage: { $usage }{ $example ->
    [none] {""}
   *[other] , e.g. { $example }
}
args-not-whole = { $name } must be a whole number, not "{ $value }". { args-hint }
args-between = { $name } must be between { $min } and { $max }.
args-at-least = { $name } must be at least { $min }.
args-at-most = { $name } must be at most { $max }.
args-chain-first = /{ $command } needs a chain before the address: one of { $choices }. { args-hint }
args-chain-only = /{ $command } covers { $choices } only; "{ $value }" is not one of them.
args-not-choice = "{ $value }" is not a { $name } I know; choose one of: { $choices }.
args-needs-one = /{ $command } needs at least one { $type }. { args-hint }
args-needs = /{ $command } needs { $name ->
        [alert] an
        [amount] an
        [interval] an
        [options] an
       *[other] a
    } { $name }. { args-hint }
args-fewer-words = /{ $command } takes fewer words than that. { args-hint }
parse-too-long = That is too long for a token: send a symbol, an address or a link.
parse-one-token = Send one token at a time: a symbol, an address or a link.
parse-query-too-long = That is too long for a token symbol.
card-intro = About: { $text }
core-not-a-command = Commands start with /; try /help.

## Words drawn on the chart picture itself
chart-picture-empty = no trades in this range
chart-picture-log-scale = log scale
chart-picture-merged = { $factor } intervals per candle
chart-picture-volume = Vol
chart-picture-time-zone = UTC

## garbage in, nothing false out
alert-percent-too-small = A move below { $min }% would fire at every check; choose { $min }% or more.
settings-bad-default-chain = A default chain is one chain name, such as bsc or solana.
store-value-refused = I can't save that value; check it and try again.
store-save-unavailable = My database can't be reached, so that was not saved; try again in a minute.
store-save-unknown = My database did not answer in time, so I can't tell whether that was saved; look again in a minute.
store-save-read-only = That can't be saved right now: the bot's database is read-only. Tell the bot's operator.
store-save-disk-full = That can't be saved right now: the bot's disk is full. Tell the bot's operator.
store-save-damaged = That can't be saved right now: the bot cannot use its database. Tell the bot's operator.
store-read-timeout = My database is not answering right now; try again in a minute.

## /convert
cmd-convert = Convert an amount between a token and USD or another token: /convert 1.5m pepe to wif
cmd-convert-amount = How much: 100, 0.25, 2k, 1.5m; $100 for dollars
cmd-convert-token = The token you have (or want, with a $ amount)
cmd-convert-to = A token or usd to convert into; default usd
convert-amount-not-a-number = "{ $amount }" is not an amount; write it like 100, 0.25, 2k, 1.5m or $100, e.g. /convert 1.5m pepe.
convert-amount-negative = An amount to convert must be more than zero; "{ $amount }" is negative.
convert-amount-zero = An amount to convert must be more than zero.
convert-amount-too-large = "{ $amount }" is more than I convert: at most 1,000T (10^15).
convert-to-what = Convert into what? Name a token or usd after "to", e.g. /convert 2k pepe to wif.
convert-which-token = Which token? e.g. /convert 1.5m pepe or /convert $100 pepe.
convert-dollars-two-tokens = A $ amount converts into one token: /convert $100 pepe; for token to token write /convert 2k pepe to wif.
convert-same-token = Both sides are { $symbol }: convert it into another token or usd, e.g. /convert 2k pepe to wif.
convert-no-price = { $symbol } has no current price on the market service, so I can't convert it.
convert-unit-price = { $symbol } price
convert-value = Value in USD
convert-age = Data age
convert-mid-note = Mid price, not a quote: a trade gets less after fees and slippage.
convert-impact-sell = Estimated price impact selling { $symbol } into its main pair { $pair } on { $dex } ({ $address }): about { $impact } (constant-product estimate from the pair's reserves, before fees).
convert-impact-buy = Estimated price impact buying { $symbol } from its main pair { $pair } on { $dex } ({ $address }): about { $impact } (constant-product estimate from the pair's reserves, before fees).
convert-card = { $symbol } card
convert-token-on = { $symbol } ({ $chain })

## The chart on the token card
cmd-settings-setting-cardchart = cardchart
settings-cardchart = Chart on the token card
settings-cardchart-how = Admins show or hide the 24h chart on the token card with /settings cardchart on|off.
settings-cardchart-how-private = Show or hide the 24h chart on the token card with /settings cardchart on|off.
settings-cardchart-on-off = Say on or off, e.g. /settings cardchart off.
settings-saved-cardchart-on = the token card shows its 24h chart
settings-saved-cardchart-off = the token card goes without its chart
card-chart-title = { $symbol } · { $chain } · 24h
card-chart-alt = 24h price chart of { $symbol } on { $chain }: { $count } candles of 15 minutes, last { $last }, high { $high }, low { $low }.

## calls
calls-made = 📣 { $name } called this here at { $price }. Not meant as a call? Press "Not a call" within 2 minutes.
calls-line = 📣 Called by { $name } { $ago } at { $price } · now { $now } · high { $high }
calls-button-not-a-call = Not a call
calls-in-groups = Calls are kept in groups and servers: add me to one, and the first member to show a token's card there has called it.
calls-as-of = Highs from K-lines as of { $ago }, read every { $minutes } min.
calls-as-of-stretched = Highs from K-lines as of { $ago }: { $tokens } called tokens are more than the plan reads each period, so each is read every { $minutes } min.
calls-as-of-unread = Highs as of { $ago }: a call not read yet counts its price at the call; K-lines are read every { $minutes } min.
calls-remove-which = Say which token's call to remove, e.g. /calls remove pepe.
calls-none-of = Nobody in this chat has a call of { $symbol } standing.
calls-too-late = The 2 minutes to take back your call of { $symbol } have passed; an admin can remove it with /calls remove.
calls-not-yours = Only the member who called it (within 2 minutes) or an admin can remove a call.
calls-taken-back = { $name }'s call of { $symbol } is taken back.
calls-removed = The call of { $symbol } by { $name } is removed.
calls-no-such-caller = Nobody called { $who } has made a call in this chat.
calls-title = Calls by { $name }
calls-none-by = { $name } has made no calls in this chat.
calls-title-unnamed = Calls
calls-none-by-unnamed = That member has made no calls in this chat.
calls-col-when = Called
calls-col-price = At
calls-col-high = High
calls-col-now = Now
lb-title = Callers · { $period }
lb-period-1d = last day
lb-period-7d = last 7 days
lb-period-30d = last 30 days
lb-period-all = all time
lb-empty = No calls in this chat in that period. The first member to show a token's card here calls it.
lb-col-caller = Caller
lb-col-calls = Calls
lb-col-hit-rate = Hit rate
lb-col-median = Median
lb-col-best = Best
lb-more = { $count ->
    [one] And 1 more caller
   *[other] And { $count } more callers
  }; /lb with a number of rows (up to { $most }) lists more.
lb-how = Hit rate: calls whose high reached 2× the call price. Median: the middle high multiple. Ranked by hit rate, then median, then more calls.
pnl-never-called = Nobody in this chat has called { $symbol }.
pnl-caller = Caller
pnl-called = Called
pnl-called-by = called by { $name }
pnl-price-at-call = Price at the call
pnl-market-cap-at-call = Market cap at the call
pnl-high = High since
pnl-high-value = { $price } ({ $multiple }, { $after })
pnl-after = { $when } after the call
pnl-at-call = at the call
pnl-now = Now
pnl-now-value = { $price } ({ $multiple })
pnl-as-of = Read
pnl-not-read = not yet — prices are read every { $minutes } min
pnl-never-read = never — calls are read for { $days } days after they are made
pnl-headline = high since the call
pnl-caption = { $symbol } call: high { $high } ({ $after }) · now { $now }
settings-calls = Calls
settings-calls-private = kept in groups only
settings-saved-calls-on = calls on
settings-saved-calls-off = calls off (boards stay)
cmd-lb = Who called it first: this chat's callers ranked by hit rate and median high
cmd-lb-period = 1d, 7d, 30d or all; default 7d
cmd-lb-rows = Callers to list, 1–25; default 10
cmd-calls = A member's calls in this chat with the high since and now; admins: /calls remove <token>
cmd-calls-who = A member (@name, their name, or reply to their message), or remove
cmd-calls-token = With remove: the token whose call goes
cmd-pnl = This chat's call of a token as a picture: caller, price at the call, high since, now
cmd-pnl-token = Symbol, address, address-chain or a link
cmd-settings-setting-calls = calls

## code health: words that were written outside the message files

## buy feed
buys-not-admin = Only this chat's admins can manage its buy feeds.
buys-bad-amount = "{ $value }" does not work as { $option }: type an amount from $0.01 to $1T, like 250, $1.5k or 2k.
buys-bad-switch = "{ $value }" is not on or off; type sells on or sells off.
buys-bad-emoji = "{ $value }" is not one emoji; type emoji and one emoji, like emoji 🚀.
buys-missing-value = { $option } needs a value after it, like { $option } { $example }.
buys-bad-option = "{ $word }" is not a /buys option; use min, sells, whale, emoji, step or media.
buys-no-pair = { $symbol } has no trading pair with liquidity, so it has no buys to post.
buys-too-many = This chat already follows { $count } tokens, the most it may ({ $max }); /stopbuys one first.
buys-none = This chat follows no token's buys.
buys-how-to-start = Start with /buys and a token, e.g. /buys pepe min 250.
buys-how-to-stop = Stop with /stopbuys { $token }.
buys-stop-with = stop with { $command }
buys-not-following = This chat does not follow the buys of { $token }.
buys-token-on = { $symbol } ({ $chain })
buys-started = Posting the buys of { $symbol } ({ $chain }) here from now on.
buys-changed = The buy feed of { $symbol } ({ $chain }) is changed.
buys-unchanged = The buy feed of { $symbol } ({ $chain }) already has these options; nothing changed.
buys-stop-which = This chat follows more than one { $symbol }; stop one by its id: { $commands }.
buys-stopped = No more buys of { $symbol } here.
buys-stopped-all = Stopped { $count ->
    [one] the one buy feed
   *[other] all { $count } buy feeds
} of this chat.
buys-list-title = Buy feeds of this chat: { $count } of { $max }
buys-options = min { $min } · sells { $sells } · whale { $whale } · { $emoji } per { $step }
buys-sells-on = on
buys-sells-off = off
buys-checked-every = checked about every { $seconds } s
buys-title-buy = { $symbol } buy
buys-title-sell = { $symbol } sell
buys-spent = Spent
buys-got = Got
buys-received = Received
buys-sold = Sold
buys-price = Price
buys-cap = Market cap
buys-fdv = FDV
buys-dex = DEX
buys-buyer = Buyer
buys-seller = Seller
buys-time = Time
buys-when = { $time } · { $seconds } s ago
buys-when-later = { $time } · { $age } ago
buys-open-buyer = Buyer
buys-open-seller = Seller
buys-open-tx = Transaction
buys-summary = { $emoji } { $count } more { $symbol } { $kind ->
    [buys] buys
   *[trades] trades
} · { $total } { $seconds ->
    [0] within one second
   *[other] in { $seconds } s
} · largest { $largest } by { $wallet }
cmd-buys = Post a token's buys here as they happen, or list this chat's feeds
cmd-buys-token = Symbol, address, address-chain or a link
cmd-buys-options = min <usd>, sells on|off, whale <usd>, emoji <emoji>, step <usd>, media [off]
cmd-stopbuys = Stop posting a token's buys here, or all of them
cmd-stopbuys-token = A token this chat follows, or all
## launches
launch-not-checked = ⚪ Not checked: no contract report yet — this is not a sign it is safe
launch-new = 🆕 New on { $chain }: { $symbol } ({ $name })
launch-label-address = Address
launch-label-liquidity = Liquidity
launch-label-price = Price
launch-label-launched = Launched
launch-summary-title-undated = 🆕 { $count ->
    [one] 1 more new token
   *[other] { $count } more new tokens
} found on { $chain }
launch-summary-title = 🆕 { $count ->
    [one] 1 more new token
   *[other] { $count } more new tokens
} found on { $chain } between { $from } and { $to } UTC
launch-col-contract = Contract
launch-col-token = Token
launch-mark-high = 🔴 high risk
launch-mark-caution = 🟡 caution
launch-mark-low = 🟢 no red flags
launch-mark-none = ⚪ not checked
launch-summary-why = { $max ->
    [one] Past this chat's one launch post an hour; here they are in one list.
   *[other] Past this chat's { $max } launch posts an hour; here they are in one list.
}
launch-bad-min = Say the minimum liquidity in USD, e.g. /subscribe launches solana min 5000.
launch-need-chain = Say which chain's new tokens to post, e.g. /subscribe launches solana.
launch-not-admin = Only this chat's admins can manage launch posts.
launch-subscribed = New { $chain } tokens will be posted here, the contract report first (minimum liquidity { $min }).
launch-how-to-stop = To stop: /unsubscribe launches { $chain }
launch-stopped = New { $chain } tokens are no longer posted here.
launch-none-on = This chat gets no { $chain } launch posts.
launch-none = This chat gets no launch posts.
launch-which-chain = Say which chain's launch posts to stop: this chat gets them on { $chains }, e.g. /unsubscribe launches <chain>.
launch-list-title = New launches posted here
launch-col-min = Min liquidity

## buy feed: first buys
buys-first-buy = first buy seen since the feed started

## buy feed: media
buys-media-missing = Reply to a photo, GIF or video with /buys { $symbol } media to show it on whale posts (on Discord, attach it in the media option).
buys-media-not-picture = That file is not a photo, GIF or video, so whale posts cannot show it.
buys-media-too-big = That file is { $size } MB; whale posts carry at most { $max } MB.
buys-media-unreadable = The file could not be fetched; send the command with it again.
buys-media-set = Whale posts show this { $kind ->
    [photo] photo
    [animation] GIF
   *[video] video
  }.
buys-media-unused = The file that came with the command is not used: /buys { $symbol } media shows it on whale posts.
buys-whale-under-min = The whale amount is at or under the minimum: every buy posted here is marked 🐳.
buys-media-removed = Whale posts show no media now.
buys-media-of = whale media: { $kind ->
    [photo] photo
    [animation] GIF
   *[video] video
  }
buys-media-no = no media
cmd-buys-media = A photo, GIF or video for whale posts, with the option media
