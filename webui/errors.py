"""Error pages and JSON errors: the page never shows a traceback.

Under `/api/` (and `/healthz`) every failure is `{"error": {"code",
"message"}}` with a 4xx/5xx status, so the page's script can show the
message; elsewhere a short friendly page. Any `McrError` a view lets
through is answered here: STATUS is the one table from error codes (or,
failing a code, the error's class) to HTTP statuses, and the message is in
the language the request asks for (its JSON `lang`, else Accept-Language,
else English).
"""

from __future__ import annotations

import logging

from flask import Flask, current_app, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from scorer.errors import DEFAULT_LANG, McrError, ScoreError, is_chinese, pick_lang
from scorer.game.errors import GameError
from scorer.request import LANGS as BODY_LANGS
from vision.errors import ModelError, PhotoError

log = logging.getLogger(__name__)

MESSAGES: dict[str, dict[str, str]] = {
    # -- the request itself ---------------------------------------------------------
    "empty_body": {
        "en": "the request body is empty; send a JSON object",
        "zh": "请求内容是空的：请发送一个 JSON 对象",
        "zh-Hant": "請求內容是空的：請傳送一個 JSON 物件",
    },
    "bad_json": {
        "en": "the request body is not valid JSON ({detail})",
        "zh": "请求内容不是有效的 JSON",
        "zh-Hant": "請求內容不是有效的 JSON",
    },
    "bad_json.exemplars": {
        "en": "the upload's 'exemplars' field is not valid JSON ({detail})",
        "zh": "上传的“exemplars”字段不是有效的 JSON",
        "zh-Hant": "上傳的「exemplars」欄位不是有效的 JSON",
    },
    "not_object": {
        "en": 'the request body must be a JSON object, e.g. {{"hand": "..."}}',
        "zh": "请求内容必须是 JSON 对象",
        "zh-Hant": "請求內容必須是 JSON 物件",
    },
    "not_object.request": {
        "en": "'request' must be a JSON object (a score request)",
        "zh": "要核对的计分请求必须是 JSON 对象",
        "zh-Hant": "要核對的計分請求必須是 JSON 物件",
    },
    "bad_request.json_body": {
        "en": "send a JSON object (Content-Type: application/json)",
        "zh": "请发送 JSON 对象（Content-Type: application/json）",
        "zh-Hant": "請傳送 JSON 物件（Content-Type: application/json）",
    },
    "bad_request.whole_number": {
        "en": "{field} must be a whole number",
        "zh": "{field}必须是整数",
        "zh-Hant": "{field}必須是整數",
    },
    "bad_request.text": {
        "en": "{field} must be text",
        "zh": "{field}必须是文字",
        "zh-Hant": "{field}必須是文字",
    },
    # -- photos ------------------------------------------------------------------------
    "no_photo": {
        "en": "no photo was sent: upload the image in the form field 'photo' "
        "(fields received: {fields})",
        "zh": "没有收到照片：请上传照片",
        "zh-Hant": "沒有收到照片：請上傳照片",
    },
    "bad_form": {
        "en": "the upload could not be read as a form (a part header that is not UTF-8, "
        "a missing boundary or a body cut short): send the photo again from the page",
        "zh": "无法读取上传的表单（文件名编码不是 UTF-8 或上传不完整）：请从页面重新上传照片",
        "zh-Hant": "無法讀取上傳的表單（檔名編碼不是 UTF-8 或上傳不完整）：請從頁面重新上傳照片",
    },
    "no_photo.field": {
        "en": "the photo must be in the form field 'photo', not {names}",
        "zh": "照片放错了表单位置，请重新上传",
        "zh-Hant": "照片放錯了表單位置，請重新上傳",
    },
    "empty_photo": {
        "en": "the uploaded photo is empty (0 bytes)",
        "zh": "上传的照片是空的（0 字节）",
        "zh-Hant": "上傳的照片是空的（0 位元組）",
    },
    "recognizer_unavailable": {
        "en": "photo reading is not installed; enter the hand with the tile keyboard",
        "zh": "没有安装照片识别：请用牌键盘输入手牌",
        "zh-Hant": "沒有安裝照片辨識：請用牌鍵盤輸入手牌",
    },
    # -- limits, who may write, load -----------------------------------------------------
    "body_too_large": {
        "en": "The request is too large.",
        "zh": "请求太大。",
        "zh-Hant": "請求太大。",
    },
    "too_deep": {
        "en": "The request nests too deeply to be read.",
        "zh": "请求嵌套层数太多，无法读取。",
        "zh-Hant": "請求巢狀層數太多，無法讀取。",
    },
    "number_out_of_range": {
        "en": "A number in the request is out of range.",
        "zh": "请求中的数字超出范围。",
        "zh-Hant": "請求中的數字超出範圍。",
    },
    "too_long": {
        "en": "A text in the request is too long.",
        "zh": "请求中的文字太长。",
        "zh-Hant": "請求中的文字太長。",
    },
    "bad_text": {
        "en": "The request contains characters that are not valid text.",
        "zh": "请求中含有无效的字符。",
        "zh-Hant": "請求中含有無效的字元。",
    },
    "bad_host": {
        "en": "This server does not answer to that address. Open it by its own address.",
        "zh": "本服务器不接受这个地址的访问，请用它自己的地址打开。",
        "zh-Hant": "本伺服器不接受這個位址的存取，請用它自己的位址開啟。",
    },
    "bad_origin": {
        "en": "Changes are only accepted from this server's own page.",
        "zh": "只接受来自本服务器页面的修改。",
        "zh-Hant": "只接受來自本伺服器頁面的修改。",
    },
    "bad_content_type": {
        "en": "Send the change as JSON (Content-Type: application/json).",
        "zh": "请以 JSON 发送修改（Content-Type: application/json）。",
        "zh-Hant": "請以 JSON 傳送修改（Content-Type: application/json）。",
    },
    "pin_required": {
        "en": "Changing a game sheet needs the hall PIN: open /join on this tablet "
        "or scan the QR code shown at the server.",
        "zh": "修改记分表需要场馆 PIN：在本平板上打开 /join，或扫描服务器上显示的二维码。",
        "zh-Hant": "修改記分表需要場館 PIN：在本平板上開啟 /join，或掃描伺服器上顯示的 QR 碼。",
    },
    "pin_required.hall": {
        "en": "Teaching or forgetting the hall's tile set needs the hall PIN: open /join on "
        "this tablet or scan the QR code shown at the server.",
        "zh": "为整个赛场教牌或忘掉赛场的牌需要场馆 PIN：在本平板上打开 /join，"
        "或扫描服务器上显示的二维码。",
        "zh-Hant": "為整個賽場教牌或忘掉賽場的牌需要場館 PIN：在本平板上開啟 /join，"
        "或掃描伺服器上顯示的 QR 碼。",
    },
    "hall_set_unwritable": {
        "en": "The server cannot keep the hall's tile set ({detail}); check the folder of "
        "its game sheets.",
        "zh": "服务器无法保存赛场的牌（{detail}）；请检查记分表所在的文件夹。",
        "zh-Hant": "伺服器無法儲存賽場的牌（{detail}）；請檢查記分表所在的資料夾。",
    },
    "pin_wrong": {
        "en": "That PIN is wrong: type the PIN shown at the server again.",
        "zh": "PIN 不对：请重新输入服务器上显示的 PIN。",
        "zh-Hant": "PIN 不對：請重新輸入伺服器上顯示的 PIN。",
    },
    "pin_locked": {
        "en": "Too many wrong PINs from this device; wait a few minutes.",
        "zh": "本设备输错 PIN 次数过多，请等几分钟再试。",
        "zh-Hant": "本裝置輸錯 PIN 次數過多，請等幾分鐘再試。",
    },
    "busy": {
        "en": "The server is reading many photos right now; it will try again in a moment.",
        "zh": "服务器正在识别很多照片，请稍后再试。",
        "zh-Hant": "伺服器正在辨識很多照片，請稍後再試。",
    },
    "photo_timeout": {
        "en": "Reading this photo took too long; try a smaller or clearer photo.",
        "zh": "识别这张照片用时太长，请换一张更小或更清晰的照片。",
        "zh-Hant": "辨識這張照片用時太長，請換一張更小或更清晰的照片。",
    },
    "recognizer_off": {
        "en": "photo reading is turned off on this server; enter the hand with the tile keyboard",
        "zh": "本服务器关闭了照片识别：请用牌键盘输入手牌",
        "zh-Hant": "本伺服器關閉了照片辨識：請用牌鍵盤輸入手牌",
    },
    # -- the referee check ---------------------------------------------------------------
    "bad_claim": {
        "en": "the claim must be a list of fan names or numbers, or one string",
        "zh": "申报必须是番种名称或编号的列表，或一段文字",
        "zh-Hant": "申報必須是番種名稱或編號的列表，或一段文字",
    },
    "bad_total": {
        "en": "the claimed total must be a whole number ≥ 0, got {got}",
        "zh": "申报的总番数必须是不小于 0 的整数，收到 {got}",
        "zh-Hant": "申報的總番數必須是不小於 0 的整數，收到 {got}",
    },
    "empty_claim": {
        "en": "give the claimed fans, the claimed total, or both",
        "zh": "请给出申报的番种、总番数，或两者都给",
        "zh-Hant": "請給出申報的番種、總番數，或兩者都給",
    },
    # -- HTTP errors a person can cause --------------------------------------------------------
    "bad_request": {
        "en": "The request could not be read.",
        "zh": "请求无法读取。",
        "zh-Hant": "請求無法讀取。",
    },
    "not_found": {
        "en": "There is no such page.",
        "zh": "没有这个页面。",
        "zh-Hant": "沒有這個頁面。",
    },
    "method_not_allowed": {
        "en": "This address does not accept that method.",
        "zh": "这个地址不接受这种请求。",
        "zh-Hant": "這個地址不接受這種請求。",
    },
    "too_large": {
        "en": "The photo is too large (the limit is 25 MB). Take it at a lower resolution.",
        "zh": "照片太大（上限 25 MB）。请用较低的分辨率拍摄。",
        "zh-Hant": "照片太大（上限 25 MB）。請用較低的解析度拍攝。",
    },
    "too_many_parts": {
        "en": "The upload has too many parts or a field too large; send one photo at a time.",
        "zh": "上传的部分太多或某一栏太大；请一次只发送一张照片。",
        "zh-Hant": "上傳的部分太多或某一欄太大；請一次只傳送一張照片。",
    },
    "internal_error": {
        "en": "Something went wrong on the server. Please try again.",
        "zh": "服务器出错了，请再试一次。",
        "zh-Hant": "伺服器出錯了，請再試一次。",
    },
}

TERMS: dict[str, dict[str, str]] = {
    "session": {"zh": "节次", "zh-Hant": "節次"},
    "expected_number": {"zh": "盘号", "zh-Hant": "盤號"},
    "name": {"zh": "名称", "zh-Hant": "名稱"},
    "tournament": {"zh": "比赛名称", "zh-Hant": "比賽名稱"},
    "table": {"zh": "桌号", "zh-Hant": "桌號"},
    "who": {"zh": "记录人", "zh-Hant": "記錄人"},
}


class RequestError(McrError):
    """A web request that cannot be read (its body, its upload, its form)."""

    messages = MESSAGES
    terms = TERMS


#: HTTP status of an error: by its code, else by the first of its classes listed
STATUS: dict[str | type[McrError], int] = {
    "empty_body": 400,
    "bad_json": 400,
    "not_object": 400,
    "bad_request": 400,
    "no_photo": 400,
    "bad_form": 400,
    "empty_photo": 400,
    "bad_claim": 422,
    "bad_total": 422,
    "empty_claim": 422,
    "unknown_game": 404,
    "unknown_hand": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "conflict": 409,
    "too_large": 413,
    "too_many_parts": 413,
    "db_error": 500,
    "internal_error": 500,
    "recognizer_unavailable": 503,
    "recognizer_off": 503,
    "body_too_large": 413,
    "too_deep": 400,
    "bad_text": 400,
    "number_out_of_range": 422,
    "too_long": 422,
    "bad_host": 400,
    "bad_origin": 403,
    "bad_content_type": 415,
    "pin_required": 403,
    "hall_set_unwritable": 503,
    "pin_locked": 429,
    "busy": 503,
    "photo_timeout": 503,
    "db_busy": 503,
    "unknown_field": 422,
    "out_of_range": 422,
    ModelError: 503,
    PhotoError: 422,
    ScoreError: 422,
    GameError: 400,
    RequestError: 400,
    McrError: 422,
}

#: where photos are uploaded (`webui.api` serves it): a body too large there is a photo
#: too large
PHOTO_PATH = "/api/recognize"
#: where a photo of a set laid out in order is uploaded to teach it (`vision.tileset`),
#: for one tablet or for the whole hall
TEACH_PATH = "/api/teach"
HALL_SET_PATH = "/api/hall-set"

#: the error code of each HTTP status the app answers itself
HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    500: "internal_error",
}


def status_for(exc: McrError) -> int:
    """The HTTP status of an error, from STATUS."""
    if exc.code in STATUS:
        return STATUS[exc.code]
    return next(STATUS[k] for k in type(exc).__mro__ if k in STATUS)


def remember_lang(body: object) -> None:
    """Note a JSON body's `lang`, for the messages of this request's errors; one we do
    not speak (`fr`, refused by the scorer) leaves the cookie's or browser's language."""
    lang = body.get("lang") if isinstance(body, dict) else None
    if lang in BODY_LANGS:
        g.mcr_lang = pick_lang(lang)


#: the cookie the page keeps its reader's language in (pages the server writes follow it)
LANG_COOKIE = "mcr-lang"


def request_lang() -> str:
    """The message language: the body's `lang`, else the page's language cookie, else the
    best Accept-Language we speak."""
    lang = g.get("mcr_lang")
    if lang:
        return lang
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in ("en", "zh", "zh-Hant"):
        return cookie
    for tag, quality in request.accept_languages:
        if quality <= 0:  # "zh;q=0": not Chinese, whatever else is asked
            continue
        tag = tag.casefold()
        if is_chinese(tag):
            return pick_lang(tag)
        if tag.startswith("en") or tag == "*":
            return "en"
    return DEFAULT_LANG


def json_error(code: str, message: str, status: int):
    """A JSON error response in the contract's shape."""
    return jsonify({"error": {"code": code, "message": message}}), status


def error_response(exc: McrError):
    """The JSON answer to an error, in the request's language, with its status; a
    refusal that passes (a busy database) says in `Retry-After` when to try again."""
    response, status = json_error(exc.code, exc.message_in(request_lang()), status_for(exc))
    response.headers.update(retry_headers(exc, status))
    return response, status


def retry_headers(exc: McrError, status: int) -> dict[str, str]:
    """`Retry-After` for a 429 or 503 whose error names its `retry_after` seconds."""
    seconds = exc.params.get("retry_after")
    if status not in (429, 503) or isinstance(seconds, bool) or not isinstance(seconds, int):
        return {}
    return {"Retry-After": str(max(1, seconds))}


def wants_json() -> bool:
    path = request.path
    return path.startswith("/api/") or path == "/healthz" or "/api/" in path


def _page(status: int, message: str, message_zh: str = ""):
    return render_template(
        "error.html", status=status, message=message, message_zh=message_zh
    ), status


def _handle_mcr(exc: McrError):
    if wants_json():
        return error_response(exc)
    lang = request_lang()
    second = "" if lang != "en" else exc.message_in("zh")
    page, status = _page(status_for(exc), exc.message_in(lang), second)
    return page, status, retry_headers(exc, status)


def _handle_http(exc: HTTPException):
    status = exc.code or 500
    code = HTTP_CODES.get(status)
    if status == 413 and _within_size():
        code = "too_many_parts"  # werkzeug's limits on a form's parts and fields, not its size
    elif status == 413 and request.path not in (PHOTO_PATH, TEACH_PATH, HALL_SET_PATH):
        code = "body_too_large"  # no photo goes there: "the photo is too large" would puzzle
    if code is None:
        message, second = exc.description or exc.name, ""
        code = exc.name.lower().replace(" ", "_")
    else:
        err = RequestError(code)
        lang = request_lang()
        message, second = err.message_in(lang), "" if lang != "en" else err.message_in("zh")
    if wants_json():
        return json_error(code, message, status)
    return _page(status, message, second)


def _within_size() -> bool:
    """Whether the request declared a body no larger than the app accepts."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    length = request.content_length
    return limit is not None and length is not None and length <= limit


def _handle_unexpected(exc: Exception):
    if isinstance(exc, HTTPException):
        return _handle_http(exc)
    log.exception("unhandled error on %s", request.path)
    return _handle_http(InternalServerError())


#: each product language as an HTML `lang` attribute (as the page's i18n.js writes it)
HTML_LANG = {"zh": "zh-CN", "zh-Hant": "zh-Hant", "en": "en"}


def _page_lang() -> dict[str, str]:
    """Every rendered page says which language it speaks (screen readers, fonts)."""
    return {"html_lang": HTML_LANG.get(request_lang(), "en")}


def register(app: Flask) -> None:
    """Install the handlers on the app (our errors, all HTTP errors and anything unexpected)."""
    app.context_processor(_page_lang)
    app.register_error_handler(McrError, _handle_mcr)
    app.register_error_handler(HTTPException, _handle_http)
    app.register_error_handler(Exception, _handle_unexpected)
