"""Errors of the game sheet (its input, its rules, its store) and their messages.

`GameError` is the game sheet's `McrError`; where a message is about one
hand, penalty, line, session or table, the error is placed there with
`.at(...)` (`hand 3, penalty 1: ...`) instead of spelling the place into
each text.
"""

from __future__ import annotations

from scorer.errors import McrError

MESSAGES: dict[str, dict[str, str]] = {
    # -- a game's results ------------------------------------------------------------
    "bad_game": {
        "en": "a game must be a JSON object with 'players' and 'hands'",
        "zh": "一局比赛必须是包含玩家和各盘结果的 JSON 对象",
        "zh-Hant": "一局比賽必須是包含玩家和各盤結果的 JSON 物件",
    },
    "bad_game.hands": {
        "en": "'hands' must be a list",
        "zh": "各盘结果必须是列表",
        "zh-Hant": "各盤結果必須是列表",
    },
    "too_many_hands": {
        "en": "a game has at most {max} hands, got {got}",
        "zh": "一局最多 {max} 盘，收到 {got} 盘",
        "zh-Hant": "一局最多 {max} 盤，收到 {got} 盤",
    },
    "too_many_hands.full": {
        "en": "game {game} already has {max} hands",
        "zh": "第 {game} 局已经有 {max} 盘了",
        "zh-Hant": "第 {game} 局已經有 {max} 盤了",
    },
    "bad_players": {
        "en": "players must be a list of the 4 names in seat order E, S, W, N",
        "zh": "玩家必须是按东、南、西、北座位排列的 4 个名字",
        "zh-Hant": "玩家必須是按東、南、西、北座位排列的 4 個名字",
    },
    "bad_players.empty": {
        "en": "player names must be text that shows at least one character, got {got}",
        "zh": "玩家名字必须是至少有一个看得见的字符的文字，收到 {got}",
        "zh-Hant": "玩家名字必須是至少有一個看得見的字元的文字，收到 {got}",
    },
    "bad_players.text": {
        "en": "player name {name} is too long or contains ';', a tab, a line break or "
        "another control character",
        "zh": "玩家名字 {name} 太长，或含有「;」、制表符、换行或其他控制字符",
        "zh-Hant": "玩家名字 {name} 太長，或含有「;」、定位字元、換行或其他控制字元",
    },
    "bad_players.format": {
        "en": "player name {name} contains an invisible formatting character (a zero-width "
        "space or joiner, a text direction mark, a variation selector or a filler)",
        "zh": "玩家名字 {name} 含有看不见的格式字符（零宽空格、零宽连接符、文字方向控制符、"
        "变体选择符或填充符）",
        "zh-Hant": "玩家名字 {name} 含有看不見的格式字元（零寬空格、零寬連接符、文字方向控制字元、"
        "變體選擇符或填充符）",
    },
    "duplicate_player": {
        "en": "duplicate player name(s): {names}",
        "zh": "玩家名字重复：{names}",
        "zh-Hant": "玩家名字重複：{names}",
    },
    "missing_field": {
        "en": "'{field}' is required",
        "zh": "缺少{field}",
        "zh-Hant": "缺少{field}",
    },
    "missing_field.result": {
        "en": "'result' is required ('win' or 'draw')",
        "zh": "缺少结果（和牌或荒庄）",
        "zh-Hant": "缺少結果（和牌或荒莊）",
    },
    "missing_field.discarder": {
        "en": "a win on a discard needs 'discarder' (or self_drawn: true)",
        "zh": "点和要写点炮者（或者是自摸）",
        "zh-Hant": "點和要寫點炮者（或者是自摸）",
    },
    "missing_field.fans": {
        "en": "'fans' is required for a win",
        "zh": "和牌要写番数",
        "zh-Hant": "和牌要寫番數",
    },
    "missing_field.points": {
        "en": "a deduction needs 'points'",
        "zh": "罚分要写扣多少分",
        "zh-Hant": "罰分要寫扣多少分",
    },
    "missing_field.winner_arg": {
        "en": "give --winner NAME (and --fans N), or --draw",
        "zh": "请给出 --winner 和牌者（以及 --fans 番数），或 --draw",
        "zh-Hant": "請給出 --winner 和牌者（以及 --fans 番數），或 --draw",
    },
    "unknown_player": {
        "en": "{field} {name} is not one of {players}",
        "zh": "{field} {name} 不是本局的玩家",
        "zh-Hant": "{field} {name} 不是本局的玩家",
    },
    "unknown_player.registered": {
        "en": "{name} is not registered",
        "zh": "{name} 没有报名",
        "zh-Hant": "{name} 沒有報名",
    },
    "bad_result": {
        "en": "result must be 'win' or 'draw', got {got}",
        "zh": "结果只能是和牌（win）或荒庄（draw），收到 {got}",
        "zh-Hant": "結果只能是和牌（win）或荒莊（draw），收到 {got}",
    },
    "bad_hand": {
        "en": "must be an object",
        "zh": "必须是 JSON 对象",
        "zh-Hant": "必須是 JSON 物件",
    },
    "bad_hand.self_drawn": {
        "en": "self_drawn must be true or false",
        "zh": "自摸只能是 true 或 false",
        "zh-Hant": "自摸只能是 true 或 false",
    },
    "bad_hand.discarder_self_drawn": {
        "en": "a self-drawn win has no discarder",
        "zh": "自摸没有点炮者",
        "zh-Hant": "自摸沒有點炮者",
    },
    "bad_hand.own_discard": {
        "en": "the winner cannot be the discarder",
        "zh": "和牌者不能是点炮者",
        "zh-Hant": "和牌者不能是點炮者",
    },
    "bad_hand.draw_field": {
        "en": "a draw has no {field}",
        "zh": "荒庄没有{field}",
        "zh-Hant": "荒莊沒有{field}",
    },
    "bad_hand.draw_flowers": {
        "en": "only a win has flowers",
        "zh": "只有和牌才有花牌",
        "zh-Hant": "只有和牌才有花牌",
    },
    "bad_hand.penalized_winner": {
        "en": "{player} made a {kind} and may not win this hand",
        "zh": "{player} 已被判{kind}，这一盘不能和牌",
        "zh-Hant": "{player} 已被判{kind}，這一盤不能和牌",
    },
    "bad_hand.text": {
        "en": "{field} must be text of at most {max} characters",
        "zh": "{field}必须是不超过 {max} 个字符的文字",
        "zh-Hant": "{field}必須是不超過 {max} 個字元的文字",
    },
    "bad_hand.draw_args": {
        "en": "--draw takes no --winner, --discarder, --fans or --self-drawn",
        "zh": "--draw 不能同时给出 --winner、--discarder、--fans 或 --self-drawn",
        "zh-Hant": "--draw 不能同時給出 --winner、--discarder、--fans 或 --self-drawn",
    },
    "bad_hand_index": {
        "en": "a game has hands 1-{max}",
        "zh": "一局只有第 1 到第 {max} 盘",
        "zh-Hant": "一局只有第 1 到第 {max} 盤",
    },
    # -- the rules ----------------------------------------------------------------------
    "bad_fans": {
        "en": "fans must be a whole number, got {got}",
        "zh": "番数必须是整数，收到 {got}",
        "zh-Hant": "番數必須是整數，收到 {got}",
    },
    "bad_flowers": {
        "en": "flowers must be 0-8, got {got}",
        "zh": "花牌数必须在 0-8 之间，收到 {got}",
        "zh-Hant": "花牌數必須在 0-8 之間，收到 {got}",
    },
    "below_minimum": {
        "en": "a win needs at least {min} fans without flowers, got {got}",
        "zh": "和牌至少要 {min} 番（花牌不计），只有 {got} 番",
        "zh-Hant": "和牌至少要 {min} 番（花牌不計），只有 {got} 番",
    },
    "bad_penalty": {
        "en": "penalties must be a list",
        "zh": "罚分必须是列表",
        "zh-Hant": "罰分必須是列表",
    },
    "bad_penalty.object": {
        "en": "must be an object with player and kind",
        "zh": "必须是写明玩家和罚分种类的对象",
        "zh-Hant": "必須是寫明玩家和罰分種類的物件",
    },
    "bad_penalty.kind": {
        "en": "penalty kind must be one of {kinds}, got {got}",
        "zh": "罚分种类只能是 {kinds} 之一，收到 {got}",
        "zh-Hant": "罰分種類只能是 {kinds} 之一，收到 {got}",
    },
    "bad_penalty.points": {
        "en": "points must be a positive whole number",
        "zh": "扣分必须是正整数",
        "zh-Hant": "扣分必須是正整數",
    },
    "bad_penalty.no_points": {
        "en": "a {kind} takes no points",
        "zh": "{kind}不能写罚分分数",
        "zh-Hant": "{kind}不能寫罰分分數",
    },
    "bad_penalty.spec_points": {
        "en": "deduction points must be a number: {spec}",
        "zh": "扣分必须是数字：{spec}",
        "zh-Hant": "扣分必須是數字：{spec}",
    },
    "bad_penalty.spec": {
        "en": "penalty must read PLAYER:KIND[:POINTS], got {spec}",
        "zh": "罚分的写法是 玩家:种类[:分数]，收到 {spec}",
        "zh-Hant": "罰分的寫法是 玩家:種類[:分數]，收到 {spec}",
    },
    "bad_deduction": {
        "en": "a violation costs one of {allowed}, got {got}",
        "zh": "违规扣分只能是 {allowed} 之一，收到 {got}",
        "zh-Hant": "違規扣分只能是 {allowed} 之一，收到 {got}",
    },
    "bad_occurrence": {
        "en": "occurrence must be 1 or more, got {got}",
        "zh": "违规次数至少是 1，收到 {got}",
        "zh-Hant": "違規次數至少是 1，收到 {got}",
    },
    "bad_minutes": {
        "en": "minutes late must be a number, got {got}",
        "zh": "迟到分钟数必须是数字，收到 {got}",
        "zh-Hant": "遲到分鐘數必須是數字，收到 {got}",
    },
    "bad_minutes.negative": {
        "en": "minutes late cannot be negative",
        "zh": "迟到分钟数不能是负数",
        "zh-Hant": "遲到分鐘數不能是負數",
    },
    "forfeit": {
        "en": "{player} is more than 15 minutes late: the game is forfeited (局分 0); "
        "record the game without them",
        "zh": "{player} 迟到超过 15 分钟，本局判负（局分 0）；请记录不含该玩家的比赛",
        "zh-Hant": "{player} 遲到超過 15 分鐘，本局判負（局分 0）；請記錄不含該玩家的比賽",
    },
    # -- the store ------------------------------------------------------------------------
    "db_error": {
        "en": "cannot open the game database {path}: {detail}",
        "zh": "无法打开比赛数据库 {path}",
        "zh-Hant": "無法開啟比賽資料庫 {path}",
    },
    "unknown_game": {
        "en": "there is no game {game}",
        "zh": "没有第 {game} 局",
        "zh-Hant": "沒有第 {game} 局",
    },
    "unknown_hand": {
        "en": "game {game} has hands 1-{count}, not {got}",
        "zh": "第 {game} 局只有第 1 到第 {count} 盘，没有第 {got} 盘",
        "zh-Hant": "第 {game} 局只有第 1 到第 {count} 盤，沒有第 {got} 盤",
    },
    "conflict.recorded": {
        "en": "hand {hand} of game {game} is already recorded",
        "zh": "第 {game} 局的第 {hand} 盘已经记录过了",
        "zh-Hant": "第 {game} 局的第 {hand} 盤已經記錄過了",
    },
    "conflict.next": {
        "en": "the next hand of game {game} is {number}",
        "zh": "第 {game} 局的下一盘是第 {number} 盘",
        "zh-Hant": "第 {game} 局的下一盤是第 {number} 盤",
    },
    "conflict.undo": {
        "en": "game {game} now has {count} hand(s), so hand {number} is not its last: "
        "nothing was undone",
        "zh": "第 {game} 局现在有 {count} 盘，第 {number} 盘不是最后一盘，没有撤销任何一盘",
        "zh-Hant": "第 {game} 局現在有 {count} 盤，第 {number} 盤不是最後一盤，沒有撤銷任何一盤",
    },
    "conflict.edit": {
        "en": "hand {number} of game {game} was changed or undone on another device since "
        "it was opened: nothing was saved; check the sheet and correct it again",
        "zh": "第 {game} 局的第 {number} 盘在打开后已被其他设备修改或撤销，没有保存；"
        "请看清记分表后重新改正",
        "zh-Hant": "第 {game} 局的第 {number} 盤在開啟後已被其他裝置修改或撤銷，沒有儲存；"
        "請看清記分表後重新改正",
    },
    "conflict.team": {
        "en": "{player} already plays for team {team} in this tournament",
        "zh": "{player} 在本比赛中已经属于队伍 {team}",
        "zh-Hant": "{player} 在本比賽中已經屬於隊伍 {team}",
    },
    "conflict.request_id": {
        "en": "request {request} already recorded hand {number}, a different one",
        "zh": "请求 {request} 已经记录了第 {number} 盘，内容不同",
        "zh-Hant": "請求 {request} 已經記錄了第 {number} 盤，內容不同",
    },
    "bad_session": {
        "en": "session must be a whole number from 0",
        "zh": "节次必须是不小于 0 的整数",
        "zh-Hant": "節次必須是不小於 0 的整數",
    },
    "bad_text": {
        "en": "{field} must be text of at most {max} characters",
        "zh": "{field}必须是不超过 {max} 个字符的文字",
        "zh-Hant": "{field}必須是不超過 {max} 個字元的文字",
    },
    "bad_text.control": {
        "en": "{field} must not contain control characters (such as escape codes or line "
        "breaks) or text direction controls (embeddings, overrides, isolates)",
        "zh": "{field}不能含有控制字符（如转义序列、换行）或文字方向控制符",
        "zh-Hant": "{field}不能含有控制字元（如跳脫序列、換行）或文字方向控制字元",
    },
    "bad_text.note": {
        "en": "{field} must not contain control characters such as escape codes, or text "
        "direction controls (embeddings, overrides, isolates)",
        "zh": "{field}不能含有控制字符（如转义序列）或文字方向控制符",
        "zh-Hant": "{field}不能含有控制字元（如跳脫序列）或文字方向控制字元",
    },
    "db_busy": {
        "en": "the game database is busy (another program is writing to it): nothing was "
        "changed; try again in a few seconds",
        "zh": "比赛数据库正忙（另一个程序正在写入），没有做任何修改；请过几秒再试",
        "zh-Hant": "比賽資料庫正忙（另一個程式正在寫入），沒有做任何修改；請過幾秒再試",
    },
    "db_busy.saved": {
        "en": "the change was saved, but the game database was too busy to read the sheet "
        "back: do not send it again; reload the sheet in a few seconds",
        "zh": "修改已保存，但比赛数据库正忙，暂时无法读回记分表：请不要重复提交，过几秒刷新记分表",
        "zh-Hant": "修改已儲存，但比賽資料庫正忙，暫時無法讀回記分表：請不要重複送出，過幾秒重新整理記分表",
    },
    "bad_request_id": {
        "en": "request_id must be text of 1-{max} characters",
        "zh": "请求编号必须是 1-{max} 个字符的文字",
        "zh-Hant": "請求編號必須是 1-{max} 個字元的文字",
    },
    "bad_expected": {
        "en": "expected_number must be a hand number, a whole number from 1",
        "zh": "盘号必须是不小于 1 的整数",
        "zh-Hant": "盤號必須是不小於 1 的整數",
    },
    "bad_expected.number": {
        "en": "number must be the number of the last hand, a whole number from 1",
        "zh": "盘号必须是最后一盘的盘号，即不小于 1 的整数",
        "zh-Hant": "盤號必須是最後一盤的盤號，即不小於 1 的整數",
    },
    "bad_expected.revision": {
        "en": "expected_revision must be the hand's revision as the sheet gives it "
        "(text of 1-{max} characters)",
        "zh": "盘的版本必须是记分表给出的版本（1-{max} 个字符的文字）",
        "zh-Hant": "盤的版本必須是記分表給出的版本（1-{max} 個字元的文字）",
    },
    "out_of_range": {
        "en": "{field} must be {low}-{high}, got {got}",
        "zh": "{field}必须在 {low} 到 {high} 之间，收到 {got}",
        "zh-Hant": "{field}必須在 {low} 到 {high} 之間，收到 {got}",
    },
    "bad_penalty.too_many": {
        "en": "a hand has at most {max} penalties",
        "zh": "一盘最多 {max} 项罚分",
        "zh-Hant": "一盤最多 {max} 項罰分",
    },
    "bad_teams": {
        "en": "teams must be an object mapping players of this game (each once) to team names "
        "of at most {max} characters, without control or invisible formatting characters",
        "zh": "队伍须是本局每位玩家（各一次）到队名的对应，队名最多 {max} 个字符，"
        "不能含控制字符或看不见的格式字符",
        "zh-Hant": "隊伍須是本局每位玩家（各一次）到隊名的對應，隊名最多 {max} 個字元，"
        "不能含控制字元或看不見的格式字元",
    },
    "bad_penalty.too_many_game": {
        "en": "a game has at most {max} penalties on the whole game",
        "zh": "一局最多 {max} 项整局罚分",
        "zh-Hant": "一局最多 {max} 項整局罰分",
    },
    "no_hands": {
        "en": "game {game} has no hand to undo",
        "zh": "第 {game} 局没有可以撤销的盘",
        "zh-Hant": "第 {game} 局沒有可以撤銷的盤",
    },
    "bad_seat": {
        "en": "{field}_seat must be one of E, S, W, N, got {got}",
        "zh": "{field}的座位只能是 E、S、W、N 之一，收到 {got}",
        "zh-Hant": "{field}的座位只能是 E、S、W、N 之一，收到 {got}",
    },
    "bad_seat.mismatch": {
        "en": "{field} {name} does not sit {wind} in hand {number}",
        "zh": "第 {number} 盘 {wind} 位坐的不是{field} {name}",
        "zh-Hant": "第 {number} 盤 {wind} 位坐的不是{field} {name}",
    },
    # -- files and the command line ------------------------------------------------------------
    "bad_file.read": {
        "en": "cannot read {path}: {detail}",
        "zh": "无法读取 {path}",
        "zh-Hant": "無法讀取 {path}",
    },
    "bad_file.write": {
        "en": "cannot write {path}: {detail}",
        "zh": "无法写入 {path}",
        "zh-Hant": "無法寫入 {path}",
    },
    "bad_json.file": {
        "en": "{path} is not valid JSON: {detail}",
        "zh": "{path} 不是有效的 JSON",
        "zh-Hant": "{path} 不是有效的 JSON",
    },
    "bad_team": {
        "en": "--team must read PLAYER=TEAM for a player of this game, one team each, "
        "without control or formatting characters: {spec}",
        "zh": "--team 的写法是 玩家=队名，玩家须是本局的玩家，每人一队，不含控制或格式字符：{spec}",
        "zh-Hant": "--team 的寫法是 玩家=隊名，玩家須是本局的玩家，每人一隊，不含控制或格式字元：{spec}",
    },
    "bad_teams.no_tournament": {
        "en": "teams are ranked within a tournament: name the game's tournament too",
        "zh": "队伍只在比赛中排名：请同时填写本局所属的比赛",
        "zh-Hant": "隊伍只在比賽中排名：請同時填寫本局所屬的比賽",
    },
    "bad_csv.read": {
        "en": "not a game sheet CSV: {detail}",
        "zh": "这不是比赛记分表的 CSV 文件：{detail}",
        "zh-Hant": "這不是比賽記分表的 CSV 檔案：{detail}",
    },
    "bad_csv.header": {
        "en": "the first row must be {columns},<four player names>",
        "zh": "第一行必须是 {columns}，再加四个玩家名字",
        "zh-Hant": "第一行必須是 {columns}，再加四個玩家名字",
    },
    "bad_csv.points": {
        "en": "deduction points must be a number: {part}",
        "zh": "扣分必须是数字：{part}",
        "zh-Hant": "扣分必須是數字：{part}",
    },
    "bad_csv.penalty": {
        "en": "penalty must read PLAYER:KIND[:POINTS]: {part}",
        "zh": "罚分的写法是 玩家:种类[:分数]：{part}",
        "zh-Hant": "罰分的寫法是 玩家:種類[:分數]：{part}",
    },
    "bad_csv.self_drawn": {
        "en": "self_drawn must be yes or no, got {got}",
        "zh": "自摸一栏只能是 yes 或 no，收到 {got}",
        "zh-Hant": "自摸一欄只能是 yes 或 no，收到 {got}",
    },
    "bad_csv.number": {
        "en": "{field} must be a whole number, got {got}",
        "zh": "{field}必须是整数，收到 {got}",
        "zh-Hant": "{field}必須是整數，收到 {got}",
    },
    "sheet_mismatch.seat": {
        "en": "{field} is {cell} but the seating gives {real}",
        "zh": "{field}一栏写的是 {cell}，按座位应为 {real}",
        "zh-Hant": "{field}一欄寫的是 {cell}，按座位應為 {real}",
    },
    "bad_csv.hand_number": {
        "en": "hands must be numbered 1, 2, 3 ... in order: expected {expected}, got {got}",
        "zh": "各盘须按 1、2、3……依次编号：应为 {expected}，收到 {got}",
        "zh-Hant": "各盤須按 1、2、3……依次編號：應為 {expected}，收到 {got}",
    },
    "sheet_mismatch": {
        "en": "{player} has {cell} but the result gives {delta}",
        "zh": "{player} 一栏写的是 {cell}，按结果应为 {delta}",
        "zh-Hant": "{player} 一欄寫的是 {cell}，按結果應為 {delta}",
    },
    # -- tournaments ------------------------------------------------------------------------
    "bad_tournament": {
        "en": "a tournament must be a JSON object",
        "zh": "比赛必须是 JSON 对象",
        "zh-Hant": "比賽必須是 JSON 物件",
    },
    "bad_tournament.team": {
        "en": "team of {name} must be text of at most 64 characters, without control or "
        "formatting characters",
        "zh": "{name} 的队名必须是最多 64 个字符的文字，不含控制或格式字符",
        "zh-Hant": "{name} 的隊名必須是最多 64 個字元的文字，不含控制或格式字元",
    },
    "bad_tournament.name": {
        "en": "the tournament name must be text of at most {max} characters, without "
        "control or invisible formatting characters",
        "zh": "比赛名称必须是最多 {max} 个字符的文字，不含控制字符或看不见的格式字符",
        "zh-Hant": "比賽名稱必須是最多 {max} 個字元的文字，不含控制字元或看不見的格式字元",
    },
    "bad_tournament.players": {
        "en": "'players' must be a list of names or name -> team",
        "zh": "报名名单必须是名字的列表，或名字到队名的对照",
        "zh-Hant": "報名名單必須是名字的列表，或名字到隊名的對照",
    },
    "bad_tournament.sessions": {
        "en": "'sessions' must be a list of lists of games",
        "zh": "各节比赛必须是列表，每节是若干局的列表",
        "zh-Hant": "各節比賽必須是列表，每節是若干局的列表",
    },
    "bad_tournament.session": {
        "en": "must be a list of games",
        "zh": "必须是若干局的列表",
        "zh-Hant": "必須是若干局的列表",
    },
    "bad_tournament.two_tables": {
        "en": "{name} plays at two tables",
        "zh": "{name} 同时坐在两张桌上",
        "zh-Hant": "{name} 同時坐在兩張桌上",
    },
}

#: how a parameter value reads in Chinese: fields of a hand, penalty kinds
TERMS: dict[str, dict[str, str]] = {
    "player": {"zh": "玩家", "zh-Hant": "玩家"},
    "winner": {"zh": "和牌者", "zh-Hant": "和牌者"},
    "discarder": {"zh": "点炮者", "zh-Hant": "點炮者"},
    "kind": {"zh": "罚分种类", "zh-Hant": "罰分種類"},
    "fans": {"zh": "番数", "zh-Hant": "番數"},
    "flowers": {"zh": "花牌数", "zh-Hant": "花牌數"},
    "players": {"zh": "玩家名单", "zh-Hant": "玩家名單"},
    "hand": {"zh": "手牌", "zh-Hant": "手牌"},
    "note": {"zh": "备注", "zh-Hant": "備註"},
    "wrong_win": {"zh": "错和", "zh-Hant": "錯和"},
    "false_win": {"zh": "诈和", "zh-Hant": "詐和"},
    "deduction": {"zh": "罚分", "zh-Hant": "罰分"},
    "who": {"zh": "记录人", "zh-Hant": "記錄人"},
    "name": {"zh": "名称", "zh-Hant": "名稱"},
    "tournament": {"zh": "比赛名称", "zh-Hant": "比賽名稱"},
    "table": {"zh": "桌号", "zh-Hant": "桌號"},
    "team": {"zh": "队名", "zh-Hant": "隊名"},
    "points": {"zh": "罚分分数", "zh-Hant": "罰分分數"},
    "round_wind": {"zh": "圈风", "zh-Hant": "圈風"},
    "dealer": {"zh": "庄家", "zh-Hant": "莊家"},
    "self_drawn": {"zh": "自摸", "zh-Hant": "自摸"},
    "number": {"zh": "盘号", "zh-Hant": "盤號"},
}


class GameError(McrError):
    """A game, hand, penalty or sheet that the game-sheet rules refuse."""

    messages = MESSAGES
    terms = TERMS
