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
