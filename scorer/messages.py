"""The scorer's error messages in English, simplified and traditional Chinese.

Message id -> language -> text (see `scorer.errors`). Positions count the
characters of the hand as written, from 1. The Chinese texts name things as
a player does (自摸, 门风), never by the request's field names.
"""

from __future__ import annotations

_KONG_RULE_EN = (
    "a kong has none (concealed), 1-3 (claimed from that seat) or 5-7 (promoted pung "
    "claimed from seat 1-3)"
)

#: messages every layer speaks alike (`McrError.refuse_unknown`)
SHARED: dict[str, dict[str, str]] = {
    "unknown_field": {
        "en": "unknown field(s) {fields}; known: {known}",
        "zh": "请求里有不认识的项目：{fields}",
        "zh-Hant": "請求裡有不認識的項目：{fields}",
    },
}

MESSAGES: dict[str, dict[str, str]] = {
    # -- the hand notation ----------------------------------------------------------
    "bad_meld_number.after_comma": {
        "en": "after the comma at position {comma} a meld takes only a number and ']', "
        "found '{char}' at position {pos}",
        "zh": "第 {comma} 个字符的逗号后面只能写数字和「]」，第 {pos} 个字符却是「{char}」",
        "zh-Hant": "第 {comma} 個字元的逗號後面只能寫數字和「]」，第 {pos} 個字元卻是「{char}」",
    },
    "bad_meld_number.second_comma": {
        "en": "second ',' at position {pos} in one meld",
        "zh": "第 {pos} 个字符是同一副露里的第二个逗号",
        "zh-Hant": "第 {pos} 個字元是同一副露裡的第二個逗號",
    },
    "bad_meld_number.missing": {
        "en": "the comma of the meld at position {pos} is followed by no number",
        "zh": "第 {pos} 个字符开始的副露，逗号后面没有数字",
        "zh-Hant": "第 {pos} 個字元開始的副露，逗號後面沒有數字",
    },
    "bad_meld_number.pung": {
        "en": "meld {meld} at position {pos}: number {number} is not allowed; "
        "a pung is claimed from seat 1, 2 or 3",
        "zh": "第 {pos} 个字符的副露 {meld} 不能写数字 {number}：碰牌来自第 1、2 或 3 家",
        "zh-Hant": "第 {pos} 個字元的副露 {meld} 不能寫數字 {number}：碰牌來自第 1、2 或 3 家",
    },
    "bad_meld_number.chow": {
        "en": "meld {meld} at position {pos}: number {number} is not allowed; "
        "a chow's claimed tile is 1, 2 or 3",
        "zh": "第 {pos} 个字符的副露 {meld} 不能写数字 {number}：吃进的牌是顺子的第 1、2 或 3 张",
        "zh-Hant": "第 {pos} 個字元的副露 {meld} 不能寫數字 {number}：吃進的牌是順子的第 1、2 或 3 張",
    },
    "bad_meld_number.kong": {
        "en": "meld {meld} at position {pos}: number {number} is not allowed; " + _KONG_RULE_EN,
        "zh": "第 {pos} 个字符的副露 {meld} 不能写数字 {number}：暗杠不写数字，"
        "明杠写 1-3（来自哪一家），加杠写 5-7（碰自第 1-3 家）",
        "zh-Hant": "第 {pos} 個字元的副露 {meld} 不能寫數字 {number}：暗槓不寫數字，"
        "明槓寫 1-3（來自哪一家），加槓寫 5-7（碰自第 1-3 家）",
    },
    "bad_tile.zero": {
        "en": "'0' at position {pos} is not a tile rank (1-9)",
        "zh": "第 {pos} 个字符「0」不是牌的点数（1-9）",
        "zh-Hant": "第 {pos} 個字元「0」不是牌的點數（1-9）",
    },
    "bad_tile.index": {
        "en": "tile index {tile} is not a playing tile",
        "zh": "编号 {tile} 不是一张牌",
        "zh-Hant": "編號 {tile} 不是一張牌",
    },
    "bad_tile.indices": {
        "en": "only playing tiles (indices 0-33) can be scored, got {tiles}",
        "zh": "只能计算真正的牌（编号 0-33），收到 {tiles}",
        "zh-Hant": "只能計算真正的牌（編號 0-33），收到 {tiles}",
    },
    "missing_digits": {
        "en": "suit letter '{char}' at position {pos} has no tile numbers before it",
        "zh": "第 {pos} 个字符的花色字母「{char}」前面没有点数",
        "zh-Hant": "第 {pos} 個字元的花色字母「{char}」前面沒有點數",
    },
    "missing_suit.before": {
        "en": "digits '{digits}' at position {pos} have no suit letter (m, p or s) "
        "before '{char}' at position {at}",
        "zh": "第 {pos} 个字符起的数字「{digits}」在第 {at} 个字符「{char}」之前没有花色字母"
        "（m、p 或 s）",
        "zh-Hant": "第 {pos} 個字元起的數字「{digits}」在第 {at} 個字元「{char}」之前沒有花色字母"
        "（m、p 或 s）",
    },
    "missing_suit.end": {
        "en": "digits '{digits}' at position {pos} have no suit letter (m, p or s) "
        "at the end of the hand",
        "zh": "第 {pos} 个字符起的数字「{digits}」直到末尾都没有花色字母（m、p 或 s）",
        "zh-Hant": "第 {pos} 個字元起的數字「{digits}」直到末尾都沒有花色字母（m、p 或 s）",
    },
    "flower_in_hand": {
        "en": "flowers ('{digit}f' at position {pos}) are not part of the hand notation: "
        "give their number as the flowers count",
        "zh": "花牌（第 {pos} 个字符的「{digit}f」）不写进手牌：请另外填写花牌数",
        "zh-Hant": "花牌（第 {pos} 個字元的「{digit}f」）不寫進手牌：請另外填寫花牌數",
    },
    "bad_character": {
        "en": "unknown character '{char}' at position {pos}; use digits with m/p/s, "
        "the honors E S W N C F P and [ ] for melds",
        "zh": "第 {pos} 个字符「{char}」无法识别：请用数字加 m/p/s、字牌 E S W N C F P，"
        "副露写在 [ ] 里",
        "zh-Hant": "第 {pos} 個字元「{char}」無法辨識：請用數字加 m/p/s、字牌 E S W N C F P，"
        "副露寫在 [ ] 裡",
    },
    "bad_character.unprintable": {
        "en": "an invisible or control character {char} at position {pos}; write the hand "
        "with digits, m/p/s, the honors E S W N C F P and [ ]",
        "zh": "第 {pos} 个字符是看不见的控制字符 {char}：请用数字加 m/p/s、字牌 E S W N C F P "
        "和 [ ] 写牌",
        "zh-Hant": "第 {pos} 個字元是看不見的控制字元 {char}：請用數字加 m/p/s、字牌 E S W N C F P "
        "和 [ ] 寫牌",
    },
    "bad_character.comma": {
        "en": "',' at position {pos} is only allowed inside a meld",
        "zh": "第 {pos} 个字符的逗号只能写在副露里",
        "zh-Hant": "第 {pos} 個字元的逗號只能寫在副露裡",
    },
    "unclosed_bracket": {
        "en": "the bracket opened at position {pos} is not closed with ']'",
        "zh": "第 {pos} 个字符的「[」没有用「]」闭合",
        "zh-Hant": "第 {pos} 個字元的「[」沒有用「]」閉合",
    },
    "unclosed_bracket.nested": {
        "en": "'[' at position {pos} opens a meld inside the meld opened at position {start}; "
        "close it with ']' first",
        "zh": "第 {pos} 个字符的「[」开在第 {start} 个字符开始的副露里面：请先用「]」闭合",
        "zh-Hant": "第 {pos} 個字元的「[」開在第 {start} 個字元開始的副露裡面：請先用「]」閉合",
    },
    "unmatched_bracket": {
        "en": "']' at position {pos} closes no '['",
        "zh": "第 {pos} 个字符的「]」前面没有「[」",
        "zh-Hant": "第 {pos} 個字元的「]」前面沒有「[」",
    },
    "meld_after_tiles": {
        "en": "the meld at position {pos} comes after concealed tiles; write all melds first, "
        "then the concealed tiles ending with the winning tile",
        "zh": "第 {pos} 个字符的副露写在了手牌之后：请先写全部副露，再写手牌，最后一张是和牌张",
        "zh-Hant": "第 {pos} 個字元的副露寫在了手牌之後：請先寫全部副露，再寫手牌，最後一張是和牌張",
    },
    "too_many_melds": {
        "en": "the meld at position {pos} would be meld number {number}; "
        "a hand has at most {max} melds",
        "zh": "第 {pos} 个字符的副露是第 {number} 组：一手牌最多 {max} 组副露",
        "zh-Hant": "第 {pos} 個字元的副露是第 {number} 組：一手牌最多 {max} 組副露",
    },
    "bad_meld": {
        "en": "meld {meld} at position {pos} holds {tiles}: a meld is a chow (3 in a row of "
        "one suit), a pung (3 alike) or a kong (4 alike)",
        "zh": "第 {pos} 个字符的副露 {meld} 是 {tiles}：副露只能是顺子（同花色三张相连）、"
        "刻子（三张相同）或杠（四张相同）",
        "zh-Hant": "第 {pos} 個字元的副露 {meld} 是 {tiles}：副露只能是順子（同花色三張相連）、"
        "刻子（三張相同）或槓（四張相同）",
    },
    "bad_meld.plain": {
        "en": "a plain tile list takes no melds",
        "zh": "单纯的一列牌不能有副露",
        "zh-Hant": "單純的一列牌不能有副露",
    },
    "bad_meld.index": {
        "en": "{kind} starting at tile index {tile} is not a meld",
        "zh": "从编号 {tile} 开始的{kind}不成副露",
        "zh-Hant": "從編號 {tile} 開始的{kind}不成副露",
    },
    "too_many_copies": {
        "en": "there are only 4 of each tile, the hand (melds included) has {listing}",
        "zh": "每种牌只有 4 张，这手牌（含副露）有 {listing}",
        "zh-Hant": "每種牌只有 4 張，這手牌（含副露）有 {listing}",
    },
    "wrong_tile_count.waiting": {
        "en": "with {melds} meld(s) a waiting hand needs {need} concealed tiles, got {got}",
        "zh": "有 {melds} 组副露时，听牌的手牌应有 {need} 张，实际有 {got} 张",
        "zh-Hant": "有 {melds} 組副露時，聽牌的手牌應有 {need} 張，實際有 {got} 張",
    },
    "wrong_tile_count.winning": {
        "en": "with {melds} meld(s) a winning hand (the last one the winning tile) "
        "needs {need} concealed tiles, got {got}",
        "zh": "有 {melds} 组副露时，和牌的手牌（最后一张是和牌张）应有 {need} 张，实际有 {got} 张",
        "zh-Hant": "有 {melds} 組副露時，和牌的手牌（最後一張是和牌張）應有 {need} 張，"
        "實際有 {got} 張",
    },
    "wrong_tile_count.size": {
        "en": "{melds} meld(s) and {tiles} tile(s) do not make a {size}-tile hand",
        "zh": "{melds} 组副露加 {tiles} 张牌凑不成 {size} 张的一手牌",
        "zh-Hant": "{melds} 組副露加 {tiles} 張牌湊不成 {size} 張的一手牌",
    },
    "bad_type.hand_text": {
        "en": "a hand is a string, got {type}",
        "zh": "手牌必须是文字",
        "zh-Hant": "手牌必須是文字",
    },
    "too_long": {
        "en": "the hand is {length} characters long; at most {max}",
        "zh": "手牌有 {length} 个字符，最多只能 {max} 个",
        "zh-Hant": "手牌有 {length} 個字元，最多只能 {max} 個",
    },
    "too_long.id": {
        "en": "'id' is longer than {max} characters as JSON",
        "zh": "请求编号太长（JSON 最多 {max} 个字符）",
        "zh-Hant": "請求編號太長（JSON 最多 {max} 個字元）",
    },
    "too_long.claim": {
        "en": "the claim is longer than {max} characters",
        "zh": "申报太长（最多 {max} 个字符）",
        "zh-Hant": "申報太長（最多 {max} 個字元）",
    },
    "bad_claim.too_many": {
        "en": "'{item}': a fan is counted at most {max} times",
        "zh": "「{item}」：一个番种最多计 {max} 次",
        "zh-Hant": "「{item}」：一個番種最多計 {max} 次",
    },
    "empty_hand": {
        "en": "the hand is empty",
        "zh": "手牌是空的",
        "zh-Hant": "手牌是空的",
    },
    # -- scoring -------------------------------------------------------------------------
    "not_winning": {
        "en": "these tiles do not make a winning hand (four sets and a pair, seven pairs, "
        "thirteen orphans, honors and knitted tiles, or a knitted straight)",
        "zh": "这些牌不成和牌（四组面子加一对将、七对、十三幺、全不靠或组合龙）",
        "zh-Hant": "這些牌不成和牌（四組面子加一對將、七對、十三么、全不靠或組合龍）",
    },
    "not_winning.no_tile": {
        "en": "the hand has no winning tile",
        "zh": "这手牌没有和牌张",
        "zh-Hant": "這手牌沒有和牌張",
    },
    # -- the score request -----------------------------------------------------------------
    "bad_request": {
        "en": "a score request is a JSON object, got {type}",
        "zh": "计分请求必须是 JSON 对象",
        "zh-Hant": "計分請求必須是 JSON 物件",
    },
    "missing_field.hand": {
        "en": "the request has no 'hand'",
        "zh": "请求里没有手牌",
        "zh-Hant": "請求裡沒有手牌",
    },
    "bad_type.hand": {
        "en": "'hand' must be a string, got {type}",
        "zh": "手牌必须是文字",
        "zh-Hant": "手牌必須是文字",
    },
    "bad_type.flag": {
        "en": "'{field}' must be true or false, got {got}",
        "zh": "「{field}」只能是 true 或 false，收到 {got}",
        "zh-Hant": "「{field}」只能是 true 或 false，收到 {got}",
    },
    "bad_wind": {
        "en": "'{field}' must be one of E, S, W, N, got {got}",
        "zh": "{field}只能是 E、S、W、N 之一，收到 {got}",
        "zh-Hant": "{field}只能是 E、S、W、N 之一，收到 {got}",
    },
    "bad_type.flowers": {
        "en": "'flowers' must be a whole number 0-8, got {got}",
        "zh": "花牌数必须是 0-8 的整数，收到 {got}",
        "zh-Hant": "花牌數必須是 0-8 的整數，收到 {got}",
    },
    "bad_flowers": {
        "en": "'flowers' must be 0-8 (there are 8 flowers), got {got}",
        "zh": "花牌数必须在 0-8 之间（花牌共 8 张），收到 {got}",
        "zh-Hant": "花牌數必須在 0-8 之間（花牌共 8 張），收到 {got}",
    },
    "bad_lang": {
        "en": "'lang' must be zh, zh-Hant, en or both, got {got}",
        "zh": "语言只能是 zh、zh-Hant、en 或 both，收到 {got}",
        "zh-Hant": "語言只能是 zh、zh-Hant、en 或 both，收到 {got}",
    },
    "no_winning_tile": {
        "en": "a hand to score needs its winning tile last",
        "zh": "要计分的手牌最后一张必须是和牌张",
        "zh-Hant": "要計分的手牌最後一張必須是和牌張",
    },
    "contradictory_flags.kong_last_tile": {
        "en": "'kong' and 'last_tile' cannot both be set ({first} and {second}): no kong is "
        "made on the last tile of the wall, and a robbed kong is not a discard",
        "zh": "{first}与{second}不能同时成立：最后一张牌不能开杠，被抢的杠也不是打出的牌",
        "zh-Hant": "{first}與{second}不能同時成立：最後一張牌不能開槓，被搶的槓也不是打出的牌",
    },
    "contradictory_flags.no_kong": {
        "en": "'kong' on a self-draw means out on a kong replacement (杠上开花), "
        "but the hand has no kong",
        "zh": "自摸的杠上开花要有杠，但这手牌没有杠",
        "zh-Hant": "自摸的槓上開花要有槓，但這手牌沒有槓",
    },
    "contradictory_flags.robbed": {
        "en": "'kong' on a discard means robbing a kong (抢杠和) of {tile}: the other three "
        "{tile} are in the robbed player's pung, yet the hand holds {count} more",
        "zh": "抢杠和抢的是 {tile}：另外三张 {tile} 在被抢者的刻子里，但这手牌还有 {count} 张",
        "zh-Hant": "搶槓和搶的是 {tile}：另外三張 {tile} 在被搶者的刻子裡，但這手牌還有 {count} 張",
    },
    "contradictory_flags.fourth_tile": {
        "en": "'fourth_tile' (和绝张) needs the three other {tile} shown on the table, "
        "but the hand holds {count} concealed",
        "zh": "和绝张要另外三张 {tile} 都已亮在桌上，但手里还藏着 {count} 张",
        "zh-Hant": "和絕張要另外三張 {tile} 都已亮在桌上，但手裡還藏著 {count} 張",
    },
    # -- the referee check -------------------------------------------------------------------
    "bad_type.claim": {
        "en": "a claim is a string of fan names, got {type}",
        "zh": "申报必须是番种名称的文字",
        "zh-Hant": "申報必須是番種名稱的文字",
    },
    "bad_type.total": {
        "en": "a claimed total is a whole number ≥ 0, got {got}",
        "zh": "申报的总番数必须是不小于 0 的整数，收到 {got}",
        "zh-Hant": "申報的總番數必須是不小於 0 的整數，收到 {got}",
    },
    "unknown_fan.number": {
        "en": "there is no fan number {number} (1-81)",
        "zh": "没有第 {number} 号番种（番种编号 1-81）",
        "zh-Hant": "沒有第 {number} 號番種（番種編號 1-81）",
    },
    "unknown_fan.name": {
        "en": "unknown fan name '{name}'",
        "zh": "不认识的番种名称「{name}」",
        "zh-Hant": "不認識的番種名稱「{name}」",
    },
    "bad_claim.count": {
        "en": "'{item}': a fan is counted at least once",
        "zh": "「{item}」：一个番种至少计一次",
        "zh-Hant": "「{item}」：一個番種至少計一次",
    },
    "bad_claim.empty": {
        "en": "the claim names no fan",
        "zh": "申报里没有番种",
        "zh-Hant": "申報裡沒有番種",
    },
    "bad_arguments.claim": {
        "en": "give either a claimed fan list or a claimed total",
        "zh": "请给出申报的番种或申报的总番数，二者选一",
        "zh-Hant": "請給出申報的番種或申報的總番數，二者選一",
    },
    # -- the command line ----------------------------------------------------------------------
    "bad_json.line": {
        "en": "the line is not valid JSON: {detail}",
        "zh": "这一行不是有效的 JSON",
        "zh-Hant": "這一行不是有效的 JSON",
    },
    "internal_error": {
        "en": "could not score: {detail}",
        "zh": "计分时出现内部错误",
        "zh-Hant": "計分時出現內部錯誤",
    },
    "bad_arguments.batch": {
        "en": "--batch reads requests from stdin; give no HAND",
        "zh": "--batch 从标准输入读取请求，不要再给手牌",
        "zh-Hant": "--batch 從標準輸入讀取請求，不要再給手牌",
    },
    "bad_arguments.no_hand": {
        "en": "give a HAND (e.g. 123m456p789s123sEE) or --batch",
        "zh": "请给出手牌（例如 123m456p789s123sEE）或使用 --batch",
        "zh-Hant": "請給出手牌（例如 123m456p789s123sEE）或使用 --batch",
    },
}

#: how a parameter value reads in Chinese: request fields, meld kinds, fan names
TERMS: dict[str, dict[str, str]] = {
    "self_drawn": {"zh": "自摸", "zh-Hant": "自摸"},
    "fourth_tile": {"zh": "和绝张", "zh-Hant": "和絕張"},
    "kong": {"zh": "杠", "zh-Hant": "槓"},
    "last_tile": {"zh": "妙手回春／海底捞月", "zh-Hant": "妙手回春／海底撈月"},
    "seat_wind": {"zh": "门风", "zh-Hant": "門風"},
    "round_wind": {"zh": "圈风", "zh-Hant": "圈風"},
    "chow": {"zh": "顺子", "zh-Hant": "順子"},
    "pung": {"zh": "刻子", "zh-Hant": "刻子"},
    "nothing": {"zh": "空的", "zh-Hant": "空的"},
    "杠上开花": {"zh-Hant": "槓上開花"},
    "妙手回春": {"zh-Hant": "妙手回春"},
    "抢杠和": {"zh-Hant": "搶槓和"},
    "海底捞月": {"zh-Hant": "海底撈月"},
}
