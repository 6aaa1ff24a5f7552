# chainpulse — 简体中文。每个消息 id 与 en.ftl 一一对应。
# 代币名称、符号、地址和链名是数据，不翻译。

language-name = 简体中文

## The core: budgets, unknown commands

core-unknown-command = 我不认识 /{ $name }；/help 列出我能做的事。
core-unknown-command-empty = 我不认识这个命令；/help 列出我能做的事。
core-budget-user = 你发送命令的速度超过了我的回复速度；请在 { $seconds } 秒后再试。
core-budget-chat = 这个聊天发送命令的速度超过了我的回复速度；请在 { $seconds } 秒后再试。
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
store-cant-save = 设置暂时无法保存，请一分钟后再试。
store-read-only = 设置暂时无法保存：机器人的数据库是只读的。请告知机器人的运营者。
store-disk-full = 设置暂时无法保存：机器人的磁盘已满。请告知机器人的运营者。
store-damaged = 设置暂时无法保存：机器人的数据库已损坏。请告知机器人的运营者。
store-cant-read = 我暂时无法访问数据库，请一分钟后再试。
failure-busy-wait = 行情服务正忙。请在{ $wait }后再试。
failure-busy-rate-wait = 行情服务正忙——本机器人每秒最多可请求 { $rps } 次。请在{ $wait }后再试。
failure-rate-limited-wait = 行情服务正忙，要求本机器人稍候。请在{ $wait }后再试。
failure-quota-spent-wait = 行情服务今日额度已用完；数据将于 UTC { $clock } 恢复，约{ $wait }后。
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
stale-why-failing = 行情服务出现故障

## /settings

settings-title = 聊天设置
settings-saved = 已保存：{ $what }
settings-default-chain = 默认链
settings-chain-unset = 未设置（{ $fallback }）
settings-autodetect = 自动识别粘贴的地址
settings-autodetect-default = 平台默认（私聊中开启）
settings-on = 开
settings-off = 关
settings-timezone = 时区
settings-language = 语言
settings-language-auto = { $name }（按你的应用或服务器语言选择）
settings-how = 管理员可用 /settings chain <链|none>、/settings autodetect on|off、/settings timezone <地区/城市>、/settings language { $languages }|auto 修改。
settings-saved-no-chain = 不设默认链
settings-saved-chain = 默认链 { $chain }
settings-saved-autodetect-on = 自动识别 开
settings-saved-autodetect-off = 自动识别 关
settings-saved-timezone = 时区 { $zone }
settings-saved-language = 语言 { $name }
settings-saved-language-auto = 语言按你的应用或服务器语言选择
settings-autodetect-on-off = 自动识别只能是 on 或 off，例如 /settings autodetect on。
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
cmd-price-tokens = 符号、名称、地址或链接；用逗号分隔
cmd-token = 代币卡片：价格、市值、成交量、交易对、链接和风险结论
cmd-token-token = 符号、名称、地址、地址-链或链接
cmd-risk = 合约风险：貔貅、税率、所有者、增发、代理、锁仓，以及 🟢/🟡/🔴 结论
cmd-risk-token = 符号、名称、地址、地址-链或链接
cmd-holders = 前排持有人：占比、价值和标签，以及前 10 名集中度
cmd-holders-token = 符号、名称、地址、地址-链或链接
cmd-holders-n = 列出多少个持有人（默认 10）
cmd-swaps = 代币主交易对的最新成交：买入或卖出、规模、钱包、时间
cmd-swaps-token = 代币（使用其主交易对）或 <交易对>-<链> 形式的交易对
cmd-chart = 代币或交易对的 K 线图：/chart pepe 4h
cmd-chart-token = 符号、名称、地址、地址-链、交易对 id 或池子链接
cmd-chart-interval = K 线周期：1m、5m、15m、30m、1h、2h、4h、1d、3d、1w、1M；默认 1h
cmd-chart-category = u：美元（默认），r：以交易对的报价代币计，m：以链的主币计
cmd-trending = 某条链上的热门代币，分页显示
cmd-trending-chain = 链名；默认为本聊天的链
cmd-trending-page = 页码，从 1 开始
cmd-top = 代币排行榜：hot、meme、gainer、loser、new、ai……
cmd-top-topic = 哪个榜单；/topics 列出全部
cmd-topics = 可用 /top 打开的代币排行榜
cmd-search = 按符号、名称或地址查找代币，流动性最高的在前
cmd-search-keyword = 符号、名称或地址
cmd-search-chain = 只查这条链
cmd-chains = 行情数据覆盖的链
cmd-main = 某条链的主要代币（原生币、包装币、稳定币）
cmd-main-chain = 链名，例如 eth、bsc、solana
cmd-pairs = 代币的交易对（v1，最多 10 个）
cmd-pairs-token = 符号、名称、地址、地址-链或链接
cmd-liquidity = 交易对最近的流动性添加与移除（v1）
cmd-liquidity-pair = 交易对地址，或 <交易对>-<链>
cmd-amm = 某条链上某个 DEX 最活跃的交易对（v1）
cmd-amm-amm = 服务所用的 DEX 名称，例如 uniswapv2
cmd-amm-chain = 链名
cmd-check = 检查 bsc、eth、arbitrum 或 core 上的合约（v1）
cmd-check-chain = 合约所在的链
cmd-check-contract = 合约地址（0x…）
cmd-settings = 查看本聊天的设置；管理员可修改默认链、自动识别、时区和语言
cmd-settings-setting = 要修改哪项设置
cmd-settings-value = 新的值
cmd-autodetect = 用代币卡片回复粘贴的地址和链接（管理员）：开或关
cmd-autodetect-state = on 或 off
cmd-alert = 代币价格越过某个价位或涨跌达到某个百分比时通知本聊天（群组中需管理员）
cmd-alert-token = 符号、名称、地址或链接
cmd-alert-rule = above（高于）、below（低于）或 move（波动）
cmd-alert-value = 价格，如 0.0042、$1.5k 或 2M；move 时为百分比，如 10%
cmd-alerts = 本聊天的价格提醒，最接近触发的在前
cmd-rearm = 从当前价格重新启用一个提醒（群组中需管理员）
cmd-rearm-alert = 提醒在 /alerts 中的编号
cmd-unalert = 按编号删除本聊天的一个提醒，或全部删除（群组中需管理员）
cmd-unalert-alert = 提醒在 /alerts 中的编号，或 all
cmd-watch = 把代币加入本聊天的自选列表（群组中需管理员）
cmd-watch-tokens = 符号、名称、地址或链接；用逗号分隔
cmd-unwatch = 从本聊天的自选列表移除一个代币，或全部移除（群组中需管理员）
cmd-unwatch-token = 自选列表中的代币，或 all
cmd-watchlist = 本聊天的自选代币：价格、24h 涨跌和数据时间
cmd-subscribe = 按计划在此发布某条链的热门摘要（管理员）
cmd-subscribe-chain = 热门榜所在的链
cmd-subscribe-schedule = every 15m|30m|1h|4h|12h、daily HH:MM 或 cron 表达式；然后 top N
cmd-unsubscribe = 停止此处某条链的摘要，或全部停止（管理员）
cmd-unsubscribe-chain = 一条链，或 all
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
help-tokens = 代币可以是符号（pepe）、名称、地址、地址-链，或粘贴的链接。/help <命令> 显示示例。
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
digest-stopped-all = 已停止此处全部 { $count } 个摘要。
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
digest-new = 新
digest-volume-cap = 成交额 { $volume } · 市值 { $cap }
digest-title = { $chain } 热门 — 前 { $count } 名
digest-nothing = { $chain } 上暂时没有热门代币。
digest-footer = 摘要 { $schedule } · /unsubscribe { $chain } 可停止
digest-paused-title = { $chain } 摘要已暂停：我无权在此发言。
digest-paused-how = 请给我发消息的权限，然后管理员可以再次 /subscribe { $chain }。
