# chainpulse — 简体中文。每个消息 id 与 en.ftl 一一对应。
# 代币名称、符号、地址和链名是数据，不翻译。

language-name = 简体中文

## The core: budgets, unknown commands

core-unknown-command = 我不认识 /{ $name }；/help 列出我能做的事。
core-unknown-command-empty = 我不认识这个命令；/help 列出我能做的事。
core-budget-user = 你这一分钟发送的命令已超过我对一个人的上限；请在 { $seconds } 秒后再试。
core-budget-chat = 这个聊天这一分钟发送的命令已超过我对一个聊天的上限；请在 { $seconds } 秒后再试。
core-sorry = 我这边出了点问题。

## Failures

failure-sorry = 我这边出了点问题，已记录。
failure-not-answering = 行情服务没有响应；请一分钟后再试。
failure-server = 行情服务出现故障；请一分钟后再试。
failure-envelope = 行情服务返回了错误；请一分钟后再试。
failure-malformed = 行情服务返回的内容无法读取；请一分钟后再试。
failure-shape = 行情服务返回的数据格式无法识别，已记录。
failure-rate-limited = 行情服务正忙；请几秒后再试。
failure-busy = 行情服务正忙；请几秒后再试。
failure-quota = 行情服务今日额度已用完；额度重置后数据恢复。
failure-unauthorized = 机器人的行情数据密钥被拒绝；请告知机器人的管理者。
failure-not-found = 行情服务不认识这个代币或交易对。
failure-bad-request = 行情服务拒绝了这个请求；请检查链和地址。
store-cant-read = 我暂时无法访问数据库，请一分钟后再试。
failure-busy-wait = 行情服务正忙。请在{ $wait }后再试。
failure-busy-rate-wait = 行情服务正忙——本机器人每秒最多可请求 { $rps } 次。请在{ $wait }后再试。
failure-rate-limited-wait = 行情服务正忙，要求本机器人稍候。请在{ $wait }后再试。
failure-quota-spent-wait = 行情服务今日额度已用完；数据将于 UTC { $clock } 恢复，{ $wait }后。
failure-quota-saving-wait = 本机器人正在为稍后保留今日行情额度；请在{ $wait }后再试。
wait-second = 约 1 秒
wait-seconds = 约 { $n } 秒
wait-minutes = 约 { $n } 分钟
wait-hour = 约 1 小时
wait-hours = 约 { $n } 小时

## Data older than asked for, because the market service did not answer in time

stale-note = 数据截至 UTC { $clock }（{ $ago }）——{ $why }
stale-ago-seconds = { $n } 秒前
stale-ago-minutes = { $n } 分钟前
stale-ago-hours = { $n } 小时前
stale-ago-days = { $n } 天前
stale-why-slow = 行情服务响应缓慢
stale-why-busy = 行情服务正忙
stale-why-quota = 行情服务今日额度已用完
stale-why-saving = 本机器人正在为稍后保留今日行情额度
stale-why-failing = 行情服务出现故障

## /settings

settings-title = 聊天设置
settings-saved = 已保存：{ $what }
settings-default-chain = 默认链
settings-chain-unset = 未设置（{ $fallback }）
settings-autodetect = 自动识别粘贴的地址
settings-autodetect-default = 平台默认（私聊中开启）
settings-autodetect-default-private = 开（私聊中的默认）
settings-autodetect-unseen = 开，但我在这里看不到粘贴的内容（见 /autodetect）
settings-on = 开
settings-off = 关
settings-timezone = 时区
settings-language = 语言
settings-language-auto-app = { $name }（跟随你的应用语言）
settings-language-auto-server = { $name }（跟随服务器语言）
settings-language-auto-default = { $name }（群组的默认语言）
settings-how = 管理员可用 /settings chain <链|none>、/settings autodetect on|off、/settings timezone <地区/城市>、/settings language { $languages }|auto、/settings calls on|off 修改。
settings-how-private = 可用 /settings chain <链|none>、/settings autodetect on|off、/settings timezone <地区/城市>、/settings language { $languages }|auto 修改。
settings-saved-no-chain = 不设默认链
settings-saved-chain = 默认链 { $chain }
settings-saved-timezone = 时区 { $zone }
settings-timezone-digests-kept = 此前设置的 { $count } 个摘要仍按原时区（{ $zones }）发送；重新订阅其链即可改用新时区。
settings-saved-language = 语言 { $name }
settings-saved-language-app = 语言改为跟随你的应用语言
settings-saved-language-server = 语言改为跟随服务器语言
settings-saved-language-default = 语言恢复为默认
settings-bad-timezone = 我不认识时区“{ $zone }”；请使用 Europe/Berlin 或 UTC 这样的名称。
settings-bad-language = 我会说 { $languages }；例如 /settings language zh。
settings-say-value = 请说明要把 { $setting } 设为什么，例如 /settings { $setting } { $example }。
settings-not-admin = 只有本聊天的管理员可以修改设置。

## The console and `chainpulse ask`

ask-nothing = 请输入命令，例如 /price pepe，或粘贴代币地址。
source-demo = 演示数据（沙盒）
source-live = 代币行情数据服务

## Commands: descriptions for /help and the command menus

cmd-price = 一个或多个代币的价格与 24h 涨跌（最多 20 个）
cmd-price-tokens = 符号、地址或链接；用逗号分隔
cmd-token = 代币卡片：价格、市值、成交量、交易对、链接和风险结论
cmd-token-token = 符号、地址、地址-链或链接
cmd-risk = 合约风险：貔貅、税率、所有者、增发、代理、锁仓，以及 🟢/🟡/🔴 结论
cmd-risk-token = 符号、地址、地址-链或链接
cmd-holders = 前排持有人：占比、价值和标签，以及前 10 名集中度
cmd-holders-token = 符号、地址、地址-链或链接
cmd-holders-n = 列出多少个持有人（默认 10）
cmd-swaps = 代币主交易对的最新成交：买入或卖出、规模、钱包、时间
cmd-swaps-token = 代币（使用其主交易对）或 <交易对>-<链> 形式的交易对
cmd-chart = 代币或交易对的 K 线图：/chart pepe 4h
cmd-chart-token = 符号、地址、地址-链、交易对 id 或池子链接
cmd-chart-interval = K 线周期：1m、5m、15m、30m、1h、2h、4h、1d、3d、1w、1M；默认 1h
cmd-chart-category = u：美元（默认），r：以交易对的报价代币计，m：以链的主币计
cmd-trending = 某条链上的热门代币，分页显示
cmd-trending-chain = 链名；默认为本聊天的链
cmd-trending-page = 页码，从 1 开始
cmd-trending-size = 每页代币数，1 到 20；默认 10
cmd-top = 代币排行榜：hot、meme、gainer、loser、new、ai……
cmd-top-topic = 哪个榜单；/topics 列出全部
cmd-topics = 可用 /top 打开的代币排行榜
cmd-search = 按符号或地址查找代币，流动性最高的在前
cmd-search-keyword = 符号或合约地址
cmd-search-chain = 只查这条链
cmd-chains = 行情数据覆盖的链
cmd-main = 某条链的主要代币（原生币、包装币、稳定币）
cmd-main-chain = 链名，例如 eth、bsc、solana
cmd-pairs = 代币的交易对（v1，最多 10 个）
cmd-pairs-token = 符号、地址、地址-链或链接
cmd-liquidity = 交易对最近的流动性添加与移除（v1）
cmd-liquidity-pair = 交易对地址，或 <交易对>-<链>
cmd-amm = 某条链上某个 DEX 最活跃的交易对（v1）
cmd-amm-dex = 服务所用的 DEX 名称，例如 uniswapv2
cmd-amm-chain = 链名
cmd-check = 检查 bsc、eth、arbitrum 或 core 上的合约（v1）
cmd-check-chain = 合约所在的链
cmd-check-contract = 合约地址（0x…）
cmd-settings = 查看本聊天的设置；管理员可修改默认链、自动识别、时区、语言、卡片图表和喊单
cmd-settings-setting = 要修改哪项设置
cmd-settings-value = 新的值
cmd-autodetect = 用代币卡片回复粘贴的地址和链接（管理员）：开或关
cmd-autodetect-state = on 或 off
cmd-alert = 代币价格越过某个价位或涨跌达到某个百分比时通知本聊天（群组中需管理员）
cmd-alert-token = 符号、地址或链接
cmd-alert-rule = above（高于）、below（低于）或 move（波动）
cmd-alert-value = 价格，如 0.0042、$1.5k 或 2M；move 时为百分比，如 10%
cmd-alerts = 本聊天的价格提醒，最接近触发的在前
cmd-rearm = 从当前价格重新启用一个提醒（群组中需管理员）
cmd-rearm-alert = 提醒在 /alerts 中的编号
cmd-unalert = 按编号删除本聊天的一个提醒，或全部删除（群组中需管理员）
cmd-unalert-alert = 提醒在 /alerts 中的编号，或 all
cmd-watch = 把代币加入本聊天的自选列表（群组中需管理员）
cmd-watch-tokens = 符号、地址或链接；用逗号分隔
cmd-unwatch = 从本聊天的自选列表移除一个代币，或全部移除（群组中需管理员）
cmd-unwatch-token = 自选列表中的代币，或 all
cmd-watchlist = 本聊天的自选代币：价格、24h 涨跌和数据时间
cmd-subscribe = 按计划在此发布某条链的热门摘要（管理员）
cmd-subscribe-chain = 热门榜所在的链
cmd-subscribe-schedule = { $intervals ->
    [none] daily HH:MM 或 cron 表达式；然后 top N
   *[other] every { $intervals }、daily HH:MM 或 cron 表达式；然后 top N
}
cmd-unsubscribe = 停止此处某条链的摘要，或全部停止（管理员）
cmd-unsubscribe-chain = 一条链、all，或 launches 加一条链
cmd-unsubscribe-more = 更多的链
cmd-subscriptions = 本聊天接收的摘要（管理员）
cmd-help = 我能做什么，或某个命令的用法
cmd-help-command = 命令名，例如 price
cmd-start = 打招呼，并给出几个可以先试试的命令
cmd-settings-setting-chain = 默认链
cmd-settings-setting-autodetect = 自动识别
cmd-settings-setting-timezone = 时区
cmd-settings-setting-language = 语言
cmd-autodetect-state-on = 开
cmd-autodetect-state-off = 关
cmd-alert-rule-above = 高于
cmd-alert-rule-below = 低于
cmd-alert-rule-move = 波动
cmd-chart-category-u = u：美元
cmd-chart-category-r = r：报价代币
cmd-chart-category-m = m：主币

## /help and /start

help-title = 我能做什么
help-tokens = 代币可以是符号（pepe）、地址、地址-链，或粘贴的链接。/help <命令> 显示示例。
help-no-command = 没有 /{ $name } 这个命令；/help 列出全部命令。
help-optional = { $name }（可选）
help-choices = { $description }：{ $choices }
help-examples = 示例：{ $examples }
help-aliases = 也可用：{ $aliases }
start-title = 你好，我是 chainpulse
start-what = 我把链上代币行情带进这个聊天：价格、代币卡片、合约风险、前排持有人、成交、热门和排行榜。
start-try = 试试 /price pepe、/token <地址>、/risk <代币>、/trending solana 或 /top meme。粘贴合约地址，我会显示它的卡片。/help 列出全部命令。

## Buttons

button-trending = 热门
button-top-hot = 热榜
button-chains = 链
button-help = 帮助

## Digests: /subscribe, /unsubscribe, /subscriptions, the posts

digest-not-admin = 只有本聊天的管理员可以管理摘要。
digest-bad-top = 请在末尾写上 "top N" 表示数量，N 为 1 到 { $max }。
digest-not-here = 摘要只发布在 Telegram 群组和 Discord 频道，这里不行：把机器人加入其中一个，再在那里 /subscribe。
digest-too-many = 本聊天已有 { $count } 个摘要，已达上限；请先 /unsubscribe 一个。
digest-subscribed = 已订阅：{ $chain } 热门摘要，{ $schedule }，前 { $top } 名。
digest-how-to-stop = /unsubscribe { $chain } 可停止。
digest-none = 本聊天没有摘要。
digest-none-on = 本聊天没有 { $chain } 摘要。
digest-none-launches-kept = 本聊天没有摘要。{ $chains } 的新币推送照常进行：/unsubscribe launches <链> 可停止。
digest-all-alone = "all" 会停止全部摘要：请单独写 all，或写出要停止的链。
digest-launches-kept = { $chains } 的新币推送照常进行：/unsubscribe launches <链> 可停止。
digest-stopped-all = { $count ->
    [1] 已停止此处的 1 个摘要。
   *[other] 已停止此处全部 { $count } 个摘要。
}
digest-stopped = 已停止此处的 { $chain } 摘要。
digest-how-to-start = 管理员可以用 /subscribe solana 开始一个。
digest-list-title = 本聊天的摘要（{ $count }/{ $max }）
digest-col-chain = 链
digest-col-schedule = 计划
digest-col-top = 数量
digest-col-state = 状态
digest-paused = 已暂停：我无权在此发言
digest-active = 运行中
schedule-bad-every = 我不认识 "every { $every }" 这个计划：请用 every 15m、30m、1h、4h 或 12h。
schedule-bad-daily = 每日时间请写成 daily HH:MM，例如 daily 09:30。
schedule-unknown = 我看不懂这个计划：请用 every 1h、daily 09:30 或 5 段 cron 表达式。
schedule-too-often = 摘要最频繁为每 { $minutes } 分钟一次，以节省数据服务额度。
digest-paused-title = { $chain } 摘要已暂停：我无权在此发言。
digest-paused-how = 请给我发消息的权限，然后管理员可以再次 /subscribe { $chain }。

## Ages and times

age-just-now = 刚刚
age-y = { $n }年
age-d = { $n }天
age-h = { $n }小时
age-m = { $n }分钟
age-s = { $n }秒
age-pair = { $first }{ $second }
age-ago = { $age }前
age-as-of = 数据时间 { $time }（{ $ago }）
console-image = [图片：{ $alt }（{ $file }，{ $kb } KB）]
console-stale = ⚠ 数据过期：这是较早的数据

## Adapters: footers and notes

telegram-unknown-time = 未知时间
telegram-field-sep = ：
telegram-as-of = 数据时间 { $time }
telegram-stale = 数据过期：这是最后已知的数据
telegram-cut-short = （已截断：完整回答超出一条消息的长度）
discord-old = { $age }前
discord-data-age = 数据时间：{ $age }
discord-stale = 数据过期：显示的是我最后拿到的数据
discord-table-more = …… 另有 { $count } 行

## Price alerts and watchlists

alert-admins-only = 只有本聊天的管理员可以管理提醒。
watch-admins-only = 只有本聊天的管理员可以修改自选列表。
alert-price-missing = 价格是多少？请写成 0.0042、$1.5k 或 2M。
alert-price-decimal-comma = “{ $typed }”：小数请用小数点，例如 { $fixed }。
alert-price-not-a-price = “{ $typed }” 不是价格；请写成 0.0042、$1.5k 或 2M。
alert-price-zero = 价格必须大于 0。
alert-price-too-big = 这个价格超出了任何代币的范围；请检查零的个数。
alert-percent-not-a-percent = “{ $typed }” 不是百分比；请写成 10% 或 2.5%。
alert-percent-zero = 0% 的波动每次检查都会触发；请选择大于 0 的百分比。
alert-percent-too-big = 波动最多为 { $max }%。
alert-no-price = 数据服务目前没有 { $symbol } 的价格，无法设置提醒。
alert-wrong-side-above = { $symbol } 已经不低于 { $level }（现价 { $price }）；请选择高于现价的价位。
alert-wrong-side-below = { $symbol } 已经不高于 { $level }（现价 { $price }）；请选择低于现价的价位。
alert-full = 本聊天已有 { $count } 个提醒，最多 { $max } 个；请先用 /unalert 删除一个。
alert-set = 已设置提醒 #{ $number }：{ $symbol } { $rule }。
alert-armed = 提醒 #{ $number } 已重新启用：{ $symbol } { $rule }。
alert-armed-from = 提醒 #{ $number } 已重新启用：{ $symbol } { $rule }，自 { $price } 起算。
alert-which-rearm = 哪个提醒？请给出 /alerts 中的编号，例如 /rearm 2。
alert-no-such = 本聊天没有提醒 #{ $number }；/alerts 可查看全部。
alert-rule-above = 高于 { $price }
alert-rule-below = 低于 { $price }
alert-rule-move = 涨跌 { $percent }%
alert-field-now = 现价
alert-field-distance = 距离
alert-distance = 还差 { $percent }%
alert-distance-due = 下次检查时触发
alert-explain-move = 每当价格相对上次触发时的价格波动达到该幅度，就会触发。
alert-explain-level = 价格穿越该价位时触发一次，之后等待重新启用。
alert-rearmed-past-above = { $symbol } 现价已不低于该价位，因此要等价格先回到价位之下、再次向上穿越时才触发。
alert-rearmed-past-below = { $symbol } 现价已不高于该价位，因此要等价格先回到价位之上、再次向下穿越时才触发。
alert-button-alerts = 提醒列表
alert-button-delete = 删除
alert-button-card = 详情
alert-button-chart = 图表
alert-button-rearm = 重新启用
alert-fired-above = 提醒 #{ $number }：{ $symbol } 已高于 { $level }
alert-fired-below = 提醒 #{ $number }：{ $symbol } 已低于 { $level }
alert-fired-move = 提醒 #{ $number }：{ $symbol } 波动 { $change }
alert-field-token = 代币
alert-token-on = { $symbol }（{ $chain }）
alert-field-alert = 提醒
alert-numbered = #{ $number }：{ $rule }
alert-field-price = 价格
alert-field-last-seen = 上次价格
alert-field-anchor = 基准价
alert-field-time = 时间
alert-fired-move-note = 它仍然有效，从此价格起算；下次同样幅度的波动时再次触发。
alert-fired-level-note = 它现在已停用；点“重新启用”会从当前价格起重新设置。
alert-paused = 提醒 { $numbers } 已暂停：{ $symbol }（{ $chain }）已 24 小时没有价格。
alert-paused-how = 数据服务恢复报价后它们会自动恢复；/alerts 可查看，/unalert 可删除。
alerts-none = 本聊天没有价格提醒。
alerts-none-how = 可以用 /alert pepe above 0.000012 或 /alert wif move 10% 设置一个。
alerts-title = 本聊天的价格提醒（{ $count }/{ $max }）
alerts-col-token = 代币
alerts-col-rule = 规则
alerts-col-now = 现价
alerts-col-to-go = 距离
alerts-state-disarmed = 已停用
alerts-state-fired = 已于 { $time } 触发
alerts-state-paused = 已暂停：24 小时无价格
alerts-state-unpriced = 暂无价格
alerts-state-waiting = 待回穿
alerts-state-due = 即将触发
alerts-more = 另有 { $count } 个，距离触发更远。
alerts-delete-hint = 用 /unalert 加编号可删除任一提醒。
alerts-rearm-hint = 已触发的提醒可用 /rearm 加编号重新启用。
unalert-none = 本聊天没有提醒。
unalert-all = 已删除本聊天全部 { $count } 个提醒。
unalert-which = 哪个提醒？请给出 /alerts 中的编号，或 all，例如 /unalert 2。
unalert-done = 已删除提醒 #{ $number }。
unalert-already-gone = 提醒 #{ $number } 已经被删除了。
watch-which = 哪个代币？例如 /watch pepe
watch-too-many = 一次最多添加 { $max } 个代币；你写了 { $count } 个。
watch-full = 本聊天自选列表已有 { $max } 个代币，已达上限；请先用 /unwatch 移除一个。
watch-already = 已在自选中：{ $names }。
watch-refused = 未添加（自选列表最多 { $max } 个）：{ $names }。
watch-nothing-new = 没有新的代币可添加。
watch-added = 已加入自选：{ $names }。
watch-show-hint = /watchlist 可查看全部。
unwatch-empty = 本聊天自选列表已经是空的。
unwatch-all = 已从自选列表移除全部 { $count } 个代币。
unwatch-missing = { $typed } 不在本聊天自选列表中；/watchlist 可查看。
unwatch-done = 已移除自选：{ $symbol }（{ $chain }）。
unwatch-which-chain = 本聊天自选了多条链上的 { $symbol }；请指明哪一个：{ $chains }。
watchlist-none = 本聊天还没有自选代币。
watchlist-none-how = 可以用 /watch pepe wif bonk 添加。
watchlist-title = 自选列表（{ $count }/{ $max }），按 24 小时涨跌排序
watchlist-col-token = 代币
watchlist-col-chain = 链
watchlist-col-price = 价格
watchlist-col-24h = 24h
watchlist-col-age = 更新
watchlist-no-price = 暂无价格
watchlist-more = 另有 { $count } 个，涨跌较小。
adapter-button-expired = 这个按钮已过期——请重新运行命令。
discord-nothing-detected = 这条消息里没有找到合约地址或代币链接。
discord-unknown-command = 我已经不认识这个命令；请管理员重新运行 `chainpulse discord register`。
discord-budget = 你这一分钟发送的命令已超过我对一个人的上限；请稍后再试。
discord-deferred-failed = 抱歉，这个回答无法显示；请稍后再试。
# The message menu command's name as Discord shows it (at most 32 characters).
discord-token-card = 代币卡片

inline-hint = 输入代币的符号或地址
inline-none = 没有与“{ $query }”匹配的代币
inline-busy = 请求太频繁；请在 { $seconds } 秒后再试
inline-unavailable = 行情服务暂时没有回应；请稍后再试
telegram-fallback = 抱歉，这个回答无法在这里显示。已记录。
console-hint = 请输入命令，例如 /price pepe，粘贴代币地址，或 /help。
console-welcome = chainpulse 控制台：{ $hint } 输入数字按下按钮；用 Ctrl-D 或 Ctrl-C 退出。
console-no-buttons = 没有可以按的按钮。
console-choose = 请选择 1 到 { $count } 之间的数字。

## Auto-detect

autodetect-me = 我
autodetect-telegram-privacy = 我的隐私模式开启时，Telegram 在这个群里只让我看到命令，所以我还看不到粘贴的地址。解决方法：打开 @BotFather，发送 /setprivacy，选择 { $me } 并选 Disable，然后把我移出群再重新拉进来（Telegram 只在我加入时应用这个更改）——或者把我设为群管理员。
autodetect-discord-dm = 在私信里我不读取粘贴的文字；请在消息上使用 Apps → 代币卡片。
autodetect-discord-intent = 频道里的自动识别需要 message content 权限，本机器人没有开启；请在消息上使用 Apps → 代币卡片。
autodetect-how = 粘贴合约地址或 DEX、区块浏览器链接，我会回复它的代币卡片。
autodetect-who = 管理员可以用 /autodetect on 或 /autodetect off 开关。
autodetect-who-private = 你可以用 /autodetect on 或 /autodetect off 开关。
autodetect-now-on = 本聊天的自动识别已开启
autodetect-now-off = 本聊天的自动识别已关闭
autodetect-is-on = 本聊天的自动识别为开启
autodetect-is-off = 本聊天的自动识别为关闭
autodetect-on-off = 自动识别只能是 on 或 off，例如 /autodetect on。

## Risk: verdicts and findings

list-sep = 、
risk-no-data = ⚪ 没有风险数据——这不代表安全
risk-high = 🔴 高风险：{ $reasons }
risk-caution = 🟡 注意：{ $reasons }
risk-low-report = 🟢 合约报告中没有危险信号
risk-record-only = ⚪ 代币记录中没有危险信号，但没有合约报告，这不代表安全
risk-reasons-more = { $reasons }等另外 { $count } 项
risk-honeypot = 貔貅盘
risk-cannot-sell-all = 无法全部卖出
risk-cannot-buy = 无法买入
risk-buy-tax = 买入税 { $tax }
risk-sell-tax = 卖出税 { $tax }
risk-hidden-owner = 隐藏所有者
risk-selfdestruct = 可自毁
risk-creator-honeypots = 创建者曾发过貔貅盘
risk-honeypot-unchecked = 未检测貔貅
risk-mintable = 可增发
risk-owner-not-renounced = 所有权未放弃
risk-owner-take-back = 所有者可收回所有权
risk-proxy = 可升级代理合约
risk-blacklist = 有黑名单方法
risk-whitelist = 有白名单方法
risk-cooldown = 交易冷却
risk-pausable = 转账可被暂停
risk-lp-locked = LP 锁仓 { $share }
risk-top10-hold = 前 10 名持有 { $share }
risk-creator-holds = 创建者持有 { $share }
risk-score = 风险评分 { $score }/100
risk-flagged = 被标记为高风险
risk-yes-bad = ⚠ 是
risk-yes-honeypot = ⛔ 是
risk-no = 否
risk-not-checked = 未检测
risk-renounced = 已放弃
risk-label-honeypot = 貔貅
risk-label-tax = 买入 / 卖出税
risk-label-mintable = 可增发
risk-label-owner = 所有者
risk-label-proxy = 代理合约
risk-label-lists = 黑名单 / 白名单
risk-label-cooldown = 交易冷却
risk-label-pausable = 可暂停转账
risk-label-hidden-owner = 隐藏所有者
risk-label-lp-locked = LP 锁仓
risk-label-token-locked = 代币锁仓
risk-label-top10 = 前 10 名持有人
risk-label-creator = 创建者占比
risk-no-report = 行情服务没有这个代币的合约报告。只有在你能自行检查合约时才交易它。
risk-title = 风险：{ $symbol } · { $chain }
risk-service-note = 服务的说明：{ $text }

## Shared labels and buttons

button-refresh = ↻ 刷新
button-card = 卡片
button-risk = 风险
button-holders = 持有人
button-swaps = 成交
link-website = 官网
link-blog = 博客
link-whitepaper = 白皮书
button-chart = K 线
button-next = 下一页 ▶
button-previous = ◀ 上一页
col-token = 代币
col-chain = 链
col-price = 价格
col-24h = 24h
col-liquidity = 流动性
collision-original = 这是原始合约，在 { $chain } 上
collision-liquid = 这是流动性最高的一个，在 { $chain } 上
collision-address = 这个地址在 { $count } 条链上都是代币；{ $which }。
collision-symbol = 有 { $count } 个代币叫 { $symbol }；{ $which }。
collision-keyword = 有 { $count } 个代币匹配 “{ $keyword }”；{ $which }。
collision-partial = 没有叫 “{ $keyword }” 的代币；最接近且流动性最高的是 { $chain } 上的 { $symbol }。
resolve-partial-refused = 没有叫 “{ $keyword }” 的代币；最接近的是 { $chain } 上的 { $symbol }。要用它，请写出它的准确符号：{ $symbol }。
collision-other = { $chain } 上的 { $symbol }（{ $address }，流动性 { $liquidity }）
collision-sep = ；
collision-others = { $head }其他：{ $others }。
collision-others-more = { $head }其他：{ $others }；还有 { $more } 个。

## /price, /holders

price-which = 哪个代币？例如 /price pepe
price-too-many = 我一次最多查询 { $max } 个代币的价格；你查询了 { $count } 个。
price-none = 无价格
price-none-why = “无价格”：服务没有它的当前价格（未知或没有交易）。
price-late = 未能及时查询（{ $why }）：{ $tokens }。
price-title = 价格（{ $count }）
holders-contract = 合约
holders-none = 服务没有这个代币的持有人列表（超大代币，或服务没有密切跟踪的代币，会这样）。这并不说明它的风险。
holders-col-holder = 持有人
holders-col-share = 占比
holders-col-value = 价值
holders-col-label = 标签
holders-top10 = 前 10 名持有人拥有供应量的 { $share }{ $lp ->
    [yes] （含 LP 池）
   *[no] {""}
}。
holders-top10-warning = ⚠ 前 10 名持有人拥有供应量的 { $share }{ $lp ->
    [yes] （含 LP 池）
   *[no] {""}
}：少数钱包就能左右价格。
holders-title = 前排持有人：{ $symbol } · { $chain }

## Addresses, chains and token resolution

address-evm-bad-digit = 这看起来像 EVM 地址，但 “{ $digit }” 不是十六进制数字。
address-tx-hash = 这有 64 个十六进制数字：看起来是交易哈希，不是代币地址（40 个十六进制数字）。
address-evm-length = 这看起来像 EVM 地址，但它有 { $count } 个十六进制数字，而不是 40 个。
address-tron-bad-char = 这看起来像 Tron 地址，但包含地址里从不出现的 “{ $char }”。
address-solana-bad-char = 这看起来像 Solana 地址，但包含地址里从不出现的 “{ $char }”。
address-solana-length = 这看起来像 Solana 地址，但它有 { $count } 个字符，而不是 32 到 44 个。
link-no-address = 这个链接里找不到代币地址。
resolve-wrong-family = { $address } 不是 { $family ->
    [solana] Solana
    [tron] Tron
   *[evm] EVM
} 地址，所以不可能在 { $chain } 上。
resolve-nothing-at-on = 在 { $chain } 上的 { $address } 没有找到代币或交易对。
resolve-unknown-chain = 我不认识 “{ $chain }” 这条链。试试：{ $list }。
resolve-nothing-at = 在 { $address } 没有找到代币。
resolve-empty = 请发送代币符号、地址或链接。
resolve-no-match-on = 在 { $chain } 上没有代币匹配 “{ $keyword }”。
resolve-no-match = 没有代币匹配 “{ $keyword }”。
chain-unknown = 我不认识 “{ $chain }” 这条链；试试：{ $known }。
chain-none-listed = 行情服务目前没有列出任何链；请稍后再试。

## Lists: /trending, /top, /topics, /search, /chains, /main, /pairs, /liquidity, /amm, /check

trending-pages = { $chain } 热门{ $last ->
    [one] 只有一页
   *[other] 有第 1 到 { $last } 页
}；请选择其中一页。
trending-pages-at-most = { $chain } 热门最多{ $last ->
    [one] 一页
   *[other] 到第 { $last } 页
}；请选择其中一页。
trending-title = { $chain } 热门 · 第 { $page } 页
trending-title-of = { $chain } 热门 · 第 { $page }/{ $pages } 页
trending-nothing = 这条链上暂时没有热门代币。
trending-past-end = 没有更多热门代币了；这一页已超出末尾。
# A digest row's movement since the previous digest: the token was not in it.
trending-new = 新
col-move = 变动
top-title = 排行榜：{ $topic }
top-empty = 这个榜单暂时为空。
topics-title = 排行榜（{ $count }）
topics-col-topic = 榜单
topics-col-name = 名称
topics-how = 用 /top <榜单> 打开，例如 /top meme。
search-what = 搜索什么？例如 /search pepe
search-too-long = 关键词太长；我最多搜索 { $max } 个字符。
search-title = 搜索：{ $keyword }
search-title-on = 搜索：{ $chain } 上的 { $keyword }
search-none = 没有代币匹配 “{ $keyword }”。
search-none-on = 在 { $chain } 上没有代币匹配 “{ $keyword }”。
search-how = 流动性最高的在前；按数字打开它的卡片。
chains-title = 支持的链（{ $count }）
chains-col-id = 编号
chains-col-name = 名称
chains-how = 某条链的主要代币：/main <链>。合约检查（/check）支持 { $chains }。
chains-button-main = 主币：{ $chain }
main-title = { $chain } 上的主要代币
main-none = 服务没有列出这条链的主要代币。
col-pair = 交易对
col-dex = DEX
col-address = 地址
col-volume-24h = 24h 成交额
col-age = 时间
col-size = 金额
col-wallet = 钱包
pairs-title = 交易对：{ $symbol } · { $chain }
pairs-none = 服务没有列出这个代币的交易对。
liquidity-not-pair = “{ $typed }” 不是交易对地址。
liquidity-title = 流动性：{ $pair }
liquidity-none = 这个交易对没有流动性记录。
liquidity-col-kind = 类型
liquidity-kind-add = 添加
liquidity-kind-remove = 移除
amm-bad-name = DEX 名称只包含字母、数字、点、短横线或下划线，例如 uniswapv2。
amm-unknown = 服务不认识 { $chain } 上名为 “{ $dex }” 的 DEX：请检查拼写，例如 uniswapv2。
amm-title = { $chain } 上 { $dex } 最活跃的交易对
amm-none = 服务没有列出这个 DEX 在这条链上的交易对。
check-not-contract = “{ $contract }” 不是 { $chain } 上的合约地址。
check-title = 合约检查：{ $contract } · { $chain }

## /swaps and the token card

swaps-pair = 交易对 { $pair } · { $chain }
swaps-no-pair = { $symbol } 没有可以显示成交的交易对。
swaps-buy = 🟢 买入
swaps-sell = 🔴 卖出
swaps-not-found = 没有找到 “{ $typed }” 对应的代币或交易对。
swaps-title = 最新成交：{ $target }
swaps-none = 这个交易对最近没有成交。
swaps-col-side = 方向
card-audited = 已审计
card-not-audited = 未审计
card-price = 价格
card-market-cap = 市值
card-holders = 持有人
card-change = 涨跌 5m / 1h / 4h / 24h
card-buys-sells = 24h 买入 / 卖出笔数
card-age = 已上线
card-audit = 审计
card-main-pair = 主交易对
card-main-pair-value = { $dex } 上的 { $pair }（{ $address }）
card-report-age = 合约报告更新于{ $ago }
card-address = 地址

## /chart (the caption; the picture's own words stay English)

chart-bad-interval = 我不画 “{ $interval }” 这个周期的图；请选择：{ $allowed }（1M 是一个月）。
chart-no-pair-category = { $symbol } 没有可以按 { $category } 计价画图的交易对；/chart { $id } 以美元显示。
chart-in-unit = 以 { $unit } 计
chart-in-quote = 以报价代币计
chart-in-main = 以链的主币计
chart-short-history = 只有 { $age } 的历史：用 { $finer } K 线，而不是 { $asked }
chart-note = { $note }。
chart-busy = 画图服务正忙，请稍后再试。
chart-which = 哪个代币？例如 /chart pepe 1h
chart-no-trades = 这个区间没有成交：服务没有 { $name } 的 { $interval } K 线。
chart-alt-empty = { $chain } 上 { $name } 的空白 { $interval } K 线图：这个区间没有成交。
chart-last = 最新
chart-high = 最高
chart-low = 最低
chart-range = 区间
chart-range-value = { $count } × { $interval }（{ $span }）
chart-alt = { $chain } 上 { $name } 的 K 线图，{ $count } 根 { $interval } K 线，跨度 { $span }{ $unit ->
    [none] {""}
   *[other] ，{ $unit }
}：最新 { $last }，最高 { $high }，最低 { $low }。
chart-not-drawn = 现在无法画出图表；请一分钟后再试。

## Reading commands

args-message-too-long = 这条消息太长（{ $length } 个字符）；我最多读取 { $max } 个。
args-message-control = 这条消息含有控制字符；请以纯文本重新输入。
args-quote-open = 引号没有闭合；请用 { $closing } 结束。
args-too-many-words = 一个命令的词太多了；我最多接受 { $max } 个。
args-word-too-long = 其中一个词有 { $length } 个字符；我最多接受 { $max } 个。
args-word-control = 其中含有控制字符；请以纯文本重新输入。
args-hint = 用法：{ $usage }{ $example ->
    [none] {""}
   *[other] ，例如 { $example }
}
args-not-whole = 参数 <{ $name }> 必须是整数，而不是 “{ $value }”。{ args-hint }
args-between = 参数 <{ $name }> 必须在 { $min } 到 { $max } 之间。
args-at-least = 参数 <{ $name }> 必须至少为 { $min }。
args-at-most = 参数 <{ $name }> 最多为 { $max }。
args-chain-first = /{ $command } 需要在地址前写上链：{ $choices } 之一。{ args-hint }
args-chain-only = /{ $command } 只支持 { $choices }；“{ $value }” 不在其中。
args-not-choice = 参数 <{ $name }> 不接受 “{ $value }”；请选择：{ $choices }。
args-needs-one = /{ $command } 至少需要一个{ $type ->
    [token] 代币
    [chain] 链
   *[other] 参数
  }。{ args-hint }
args-needs = /{ $command } 缺少参数 <{ $name }>。{ args-hint }
args-fewer-words = /{ $command } 不需要这么多词。{ args-hint }
parse-too-long = 这对代币来说太长了：请发送符号、地址或链接。
parse-one-token = 一次只发一个代币：符号、地址或链接。
parse-query-too-long = 这对代币符号来说太长了。
card-intro = 简介：{ $text }
core-not-a-command = 命令以 / 开头；试试 /help。

## Words drawn on the chart picture itself
chart-picture-empty = 这个区间没有成交
chart-picture-log-scale = 对数坐标
chart-picture-merged = 每根 K 线合并 { $factor } 个周期
chart-picture-volume = 成交量
chart-picture-time-zone = UTC

## garbage in, nothing false out
alert-percent-too-small = 低于 { $min }% 的波动每次检查都会触发；请选择 { $min }% 或以上。
settings-bad-default-chain = 默认链是一个链名，例如 bsc 或 solana。
store-value-refused = 这个值无法保存；请检查后再试。
store-save-unavailable = 我的数据库暂时连不上，所以没有保存；请一分钟后再试。
store-save-unknown = 我的数据库没有及时回应，无法确定是否已保存；请一分钟后再看看。
store-save-read-only = 暂时无法保存：机器人的数据库是只读的。请告诉机器人的运营者。
store-save-disk-full = 暂时无法保存：机器人的磁盘已满。请告诉机器人的运营者。
store-save-damaged = 暂时无法保存：机器人无法使用它的数据库。请告诉机器人的运营者。
store-read-timeout = 我的数据库现在没有回应；请一分钟后再试。

## /convert
cmd-convert = 按中间价换算代币与美元或另一个代币的数量：/convert 1.5m pepe to wif
cmd-convert-amount = 数量：100、0.25、2k、1.5m；美元写 $100
cmd-convert-token = 你持有的代币（金额带 $ 时为想买的代币）
cmd-convert-to = 换算成的代币或 usd；默认 usd
convert-amount-not-a-number = “{ $amount }”不是数量；请写成 100、0.25、2k、1.5m 或 $100，例如 /convert 1.5m pepe。
convert-amount-negative = 换算的数量要大于零；“{ $amount }”是负数。
convert-amount-zero = 换算的数量要大于零。
convert-amount-too-large = “{ $amount }”超出了可换算的范围：最多换算 1000万亿（10^15）。
convert-to-what = 换算成什么？在 “to” 后面写代币或 usd，例如 /convert 2k pepe to wif。
convert-which-token = 哪个代币？例如 /convert 1.5m pepe 或 /convert $100 pepe。
convert-dollars-two-tokens = 带 $ 的金额只换算成一个代币：/convert $100 pepe；代币换代币请写 /convert 2k pepe to wif。
convert-same-token = 两边都是 { $symbol }：请换成另一个代币或 usd，例如 /convert 2k pepe to wif。
convert-no-price = 行情服务没有 { $symbol } 的当前价格，无法换算。
convert-unit-price = { $symbol } 价格
convert-value = 美元价值
convert-age = 数据距今
convert-mid-note = 这是中间价，不是报价：实际成交扣除手续费和滑点后会更少。
convert-impact-sell = 在主交易对 { $pair }（{ $dex }，{ $address }）卖出 { $symbol } 的价格冲击估计约为 { $impact }（按交易对储备的恒定乘积估算，未计手续费）。
convert-impact-buy = 从主交易对 { $pair }（{ $dex }，{ $address }）买入 { $symbol } 的价格冲击估计约为 { $impact }（按交易对储备的恒定乘积估算，未计手续费）。
convert-card = { $symbol } 卡片
convert-token-on = { $symbol }（{ $chain }）

## The chart on the token card
cmd-settings-setting-cardchart = 卡片图表
settings-cardchart = 代币卡片上的图表
settings-cardchart-how = 管理员可用 /settings cardchart on|off 显示或隐藏代币卡片上的 24 小时图表。
settings-cardchart-how-private = 可用 /settings cardchart on|off 显示或隐藏代币卡片上的 24 小时图表。
settings-cardchart-on-off = 请说 on 或 off，例如 /settings cardchart off。
settings-saved-cardchart-on = 代币卡片显示 24 小时图表
settings-saved-cardchart-off = 代币卡片不带图表
card-chart-title = { $symbol } · { $chain } · 24 小时
card-chart-alt = { $symbol } 在 { $chain } 上的 24 小时价格图：{ $count } 根 15 分钟 K 线，最新 { $last }，最高 { $high }，最低 { $low }。

## calls
calls-made = 📣 { $name } 在此以 { $price } 喊单。不是喊单？请在 2 分钟内按“不算喊单”。
calls-line = 📣 { $name } { $ago }以 { $price } 喊单 · 现在 { $now } · 最高 { $high }
calls-button-not-a-call = 不算喊单
calls-in-groups = 喊单记录只在群组和服务器中保存：把我加入群组，第一个在群里展示代币卡片的成员即为喊单人。
calls-as-of = 最高价取自 K 线，数据时间 { $ago }，每 { $minutes } 分钟读取一次。
calls-as-of-stretched = 最高价取自 K 线，数据时间 { $ago }：已喊单的 { $tokens } 个代币超出套餐每个周期可读的数量，因此每个代币每 { $minutes } 分钟读取一次。
calls-as-of-unread = 最高价数据时间 { $ago }：尚未读取的喊单按喊单时的价格计；K 线每 { $minutes } 分钟读取一次。
calls-remove-which = 请说明要删除哪个代币的喊单，例如 /calls remove pepe。
calls-none-of = 本聊天中没有 { $symbol } 的有效喊单。
calls-too-late = 撤回你对 { $symbol } 的喊单的 2 分钟已过；管理员可以用 /calls remove 删除。
calls-not-yours = 只有喊单人（2 分钟内）或管理员可以删除喊单。
calls-taken-back = { $name } 已撤回对 { $symbol } 的喊单。
calls-removed = { $name } 对 { $symbol } 的喊单已删除。
calls-no-such-caller = 本聊天中没有名为 { $who } 的成员喊过单。
calls-title = { $name } 的喊单
calls-none-by = { $name } 在本聊天中还没有喊单。
calls-title-unnamed = 喊单
calls-none-by-unnamed = 该成员在本聊天中还没有喊单。
calls-col-when = 喊单时间
calls-col-price = 喊单价
calls-col-high = 最高
calls-col-now = 现在
lb-title = 喊单榜 · { $period }
lb-period-1d = 最近一天
lb-period-7d = 最近 7 天
lb-period-30d = 最近 30 天
lb-period-all = 全部
lb-empty = 这段时间本聊天没有喊单。第一个在这里展示代币卡片的成员即为喊单人。
lb-col-caller = 喊单人
lb-col-calls = 次数
lb-col-hit-rate = 命中率
lb-col-median = 中位数
lb-col-best = 最佳
lb-more = 另有 { $count } 位喊单者；在 /lb 后加上行数（最多 { $most }）可列出更多。
lb-how = 命中率：最高价达到喊单价 2 倍的喊单占比。中位数：最高倍数的中位数。按命中率、中位数、喊单次数排名。
pnl-never-called = 本聊天中没有人喊过 { $symbol }。
pnl-caller = 喊单人
pnl-called = 喊单时间
pnl-called-by = 喊单人 { $name }
pnl-price-at-call = 喊单时价格
pnl-market-cap-at-call = 喊单时市值
pnl-high = 此后最高
pnl-high-value = { $price }（{ $multiple }，{ $after }）
pnl-after = 喊单后 { $when }
pnl-at-call = 喊单时
pnl-now = 现在
pnl-now-value = { $price }（{ $multiple }）
pnl-as-of = 读取于
pnl-not-read = 尚未读取（每 { $minutes } 分钟读取一次价格）
pnl-never-read = 未读取（喊单只在发出后 { $days } 天内读取价格）
pnl-headline = 喊单后最高倍数
pnl-caption = { $symbol } 喊单：最高 { $high }（{ $after }）· 现在 { $now }
settings-calls = 喊单
settings-calls-private = 仅在群组中记录
settings-saved-calls-on = 喊单开启
settings-saved-calls-off = 喊单关闭（榜单保留）
cmd-lb = 谁先喊的单：本聊天喊单人按命中率和最高倍数中位数排名
cmd-lb-period = 1d、7d、30d 或 all；默认 7d
cmd-lb-rows = 列出的喊单人数，1–25；默认 10
cmd-calls = 某成员在本聊天的喊单、此后最高与现在；管理员：/calls remove <代币>
cmd-calls-who = 成员（@名字、显示的名字，或回复其消息），或 remove
cmd-calls-token = 配合 remove：要删除喊单的代币
cmd-pnl = 本聊天对某代币的喊单图片：喊单人、喊单价、此后最高、现在
cmd-pnl-token = 符号、地址、地址-链或链接
cmd-settings-setting-calls = calls

## code health: words that were written outside the message files

## buy feed
buys-not-admin = 只有本聊天的管理员可以管理买单播报。
buys-bad-amount = “{ $value }” 不能作为 { $option }：请输入 $0.01 到 $1万亿 之间的金额，如 250、$1.5k 或 2k。
buys-bad-switch = “{ $value }” 不是 on 或 off；请输入 sells on 或 sells off。
buys-bad-emoji = “{ $value }” 不是一个表情；请输入 emoji 加一个表情，如 emoji 🚀。
buys-missing-value = { $option } 后面需要一个值，如 { $option } { $example }。
buys-bad-option = “{ $word }” 不是 /buys 的选项；可用 min、sells、whale、emoji、step 或 media。
buys-no-pair = { $symbol } 没有有流动性的交易对，没有买单可播报。
buys-too-many = 本聊天已关注 { $count } 个代币，已达上限（{ $max }）；请先 /stopbuys 一个。
buys-none = 本聊天没有关注任何代币的买单。
buys-how-to-start = 用 /buys 加代币开始，如 /buys pepe min 250。
buys-how-to-stop = 用 /stopbuys { $token } 停止。
buys-stop-with = 停止：{ $command }
buys-not-following = 本聊天没有关注 { $token } 的买单。
buys-token-on = { $symbol }（{ $chain }）
buys-started = 从现在起在这里播报 { $symbol }（{ $chain }）的买单。
buys-changed = { $symbol }（{ $chain }）的买单播报已更改。
buys-unchanged = { $symbol }（{ $chain }）的买单播报已是这些选项，没有更改。
buys-stop-which = 本聊天关注了不止一个 { $symbol }；请用 ID 停止其中一个：{ $commands }。
buys-stopped = 这里不再播报 { $symbol } 的买单。
buys-stopped-all = 已停止本聊天的 { $count } 个买单播报。
buys-list-title = 本聊天的买单播报：{ $count } / { $max }
buys-options = 最低 { $min } · 卖单 { $sells } · 巨鲸 { $whale } · 每 { $step } 一个 { $emoji }
buys-sells-on = 开
buys-sells-off = 关
buys-checked-every = 约每 { $seconds } 秒检查一次
buys-title-buy = { $symbol } 买入
buys-title-sell = { $symbol } 卖出
buys-spent = 花费
buys-got = 获得
buys-received = 收到
buys-sold = 卖出
buys-price = 价格
buys-cap = 市值
buys-fdv = 完全稀释估值
buys-dex = 交易所
buys-buyer = 买家
buys-seller = 卖家
buys-time = 时间
buys-when = { $time } · { $seconds } 秒前
buys-when-later = { $time } · { $age }前
buys-open-buyer = 买家
buys-open-seller = 卖家
buys-open-tx = 交易
buys-summary = { $emoji } 另有 { $count } 笔 { $symbol } { $kind ->
    [buys] 买单
   *[trades] 交易
} · { $seconds ->
    [0] 同一秒内
   *[other] { $seconds } 秒内
}共 { $total } · 最大 { $largest }，来自 { $wallet }
cmd-buys = 在这里实时播报代币的买单，或列出本聊天的播报
cmd-buys-token = 符号、地址、地址-链或链接
cmd-buys-options = min <美元>、sells on|off、whale <美元>、emoji <表情>、step <美元>、media [off]
cmd-stopbuys = 停止在这里播报某代币或全部代币的买单
cmd-stopbuys-token = 本聊天关注的代币，或 all
## launches
launch-not-checked = ⚪ 未检查：还没有合约报告——这不代表安全
launch-new = 🆕 { $chain } 新币：{ $symbol }（{ $name }）
launch-label-address = 地址
launch-label-liquidity = 流动性
launch-label-price = 价格
launch-label-launched = 上线时间
launch-summary-title-undated = 🆕 { $chain } 另有 { $count } 个新币
launch-summary-title = 🆕 UTC { $from } 至 { $to } 期间 { $chain } 另有 { $count } 个新币
launch-col-contract = 合约
launch-col-token = 代币
launch-mark-high = 🔴 高风险
launch-mark-caution = 🟡 注意
launch-mark-low = 🟢 无危险信号
launch-mark-none = ⚪ 未检查
launch-summary-why = 本聊天每小时最多 { $max } 条新币推送；其余的汇总在这一条里。
launch-bad-min = 请写出最低流动性（美元），例如 /subscribe launches solana min 5000。
launch-need-chain = 请写出要推送哪条链的新币，例如 /subscribe launches solana。
launch-not-admin = 只有本聊天的管理员可以管理新币推送。
launch-subscribed = { $chain } 的新币将在这里推送，合约报告在前（最低流动性 { $min }）。
launch-how-to-stop = 停止：/unsubscribe launches { $chain }
launch-stopped = 这里不再推送 { $chain } 新币。
launch-none-on = 本聊天没有 { $chain } 新币推送。
launch-none = 本聊天没有新币推送。
launch-which-chain = 请写出要停止哪条链的新币推送：本聊天在 { $chains } 上有推送，例如 /unsubscribe launches <链>。
launch-list-title = 这里推送的新币
launch-col-min = 最低流动性

## buy feed: first buys
buys-first-buy = 自本推送开始以来首次见到其买入

## buy feed: media
buys-media-missing = 回复一张图片、GIF 或视频并发送 /buys { $symbol } media，巨鲸推送就会带上它（在 Discord 上，把它放进 media 选项）。
buys-media-not-picture = 这个文件不是图片、GIF 或视频，巨鲸推送无法展示它。
buys-media-too-big = 这个文件有 { $size } MB；巨鲸推送最多带 { $max } MB。
buys-media-unreadable = 无法获取这个文件；请带上它再发一次命令。
buys-media-set = 巨鲸推送将展示这个{ $kind ->
    [photo] 图片
    [animation] GIF
   *[video] 视频
  }。
buys-media-unused = 随命令附带的文件没有被使用：发送 /buys { $symbol } media 可让巨鲸推送展示它。
buys-whale-under-min = 巨鲸金额不高于最低金额：这里推送的每笔买入都会标记 🐳。
buys-media-removed = 巨鲸推送现在不带媒体。
buys-media-of = 巨鲸媒体：{ $kind ->
    [photo] 图片
    [animation] GIF
   *[video] 视频
  }
buys-media-no = 无媒体
cmd-buys-media = 巨鲸推送展示的图片、GIF 或视频，配合 media 选项使用
