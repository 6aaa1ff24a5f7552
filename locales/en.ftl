# chainpulse — English, the default locale: every message the bot writes.
# A new language is one new file next to this one (e.g. de.ftl) with every id below.
# Token names, symbols, addresses and chain ids are data: they are never translated.

language-name = English

## The core: budgets, unknown commands

core-unknown-command = I don't know /{ $name }; /help lists what I can do.
core-unknown-command-empty = I don't know /that; /help lists what I can do.
core-budget-user = You are sending commands faster than I answer them; try again in { $seconds ->
    [one] 1 second
   *[other] { $seconds } seconds
}.
core-budget-chat = This chat is sending commands faster than I answer them; try again in { $seconds ->
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
stale-why-failing = the market service is failing

## /settings

settings-title = Chat settings
settings-saved = Saved: { $what }
settings-default-chain = Default chain
settings-chain-unset = not set ({ $fallback })
settings-autodetect = Auto-detect pasted addresses
settings-autodetect-default = platform default (on in private chats)
settings-on = on
settings-off = off
settings-timezone = Time zone
settings-language = Language
settings-language-auto = { $name } (chosen from your app's or server's language)
settings-how = Admins change them with /settings chain <chain|none>, /settings autodetect on|off, /settings timezone <Area/City>, /settings language { $languages }|auto.
settings-saved-no-chain = no default chain
settings-saved-chain = default chain { $chain }
settings-saved-autodetect-on = auto-detect on
settings-saved-autodetect-off = auto-detect off
settings-saved-timezone = time zone { $zone }
settings-saved-language = language { $name }
settings-saved-language-auto = language chosen from your app's or server's language
settings-autodetect-on-off = Auto-detect is either on or off, e.g. /settings autodetect on.
settings-bad-timezone = "{ $zone }" is not a time zone I know; use a name like Europe/Berlin or UTC.
settings-bad-language = I speak { $languages }; e.g. /settings language zh.
settings-say-value = Say what to set { $setting } to, e.g. /settings { $setting } { $example }.
settings-not-admin = Only this chat's admins can change its settings.

## The console and `chainpulse ask`

ask-nothing = Type a command such as /price pepe, or paste a token address.
source-demo = demo data (sandbox)
source-live = Token Market Data Service
