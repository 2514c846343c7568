"""Errors of the photo reader and their messages (see `scorer.errors`).

A bad photo (not an image, truncated, too large) must end in a clear
message for the person who sent it, never in a traceback; a missing model
is the installation's problem, not the photo's, and says so.
"""

from __future__ import annotations

from scorer.errors import McrError

MESSAGES: dict[str, dict[str, str]] = {
    "truncated_image": {
        "en": "The {format} file is truncated.",
        "zh": "这个 {format} 文件不完整。",
        "zh-Hant": "這個 {format} 檔案不完整。",
    },
    "truncated_image.damaged": {
        "en": "The JPEG file is damaged (bad segment marker).",
        "zh": "这个 JPEG 文件已损坏（段标记错误）。",
        "zh-Hant": "這個 JPEG 檔案已損壞（區段標記錯誤）。",
    },
    "truncated_image.no_data": {
        "en": "The JPEG file is truncated: its image data is missing.",
        "zh": "这个 JPEG 文件不完整：缺少图像数据。",
        "zh-Hant": "這個 JPEG 檔案不完整：缺少影像資料。",
    },
    "truncated_image.no_header": {
        "en": "The PNG file is truncated: no image header.",
        "zh": "这个 PNG 文件不完整：没有图像头。",
        "zh-Hant": "這個 PNG 檔案不完整：沒有影像標頭。",
    },
    "truncated_image.webp_kind": {
        "en": "The WebP file is truncated or of an unknown kind.",
        "zh": "这个 WebP 文件不完整，或是未知的类型。",
        "zh-Hant": "這個 WebP 檔案不完整，或是未知的類型。",
    },
    "truncated_image.no_end": {
        "en": "The {format} file is truncated (no end {part}).",
        "zh": "这个 {format} 文件不完整（没有结尾）。",
        "zh-Hant": "這個 {format} 檔案不完整（沒有結尾）。",
    },
    "unsupported_format": {
        "en": "HEIC photos are not supported; set the camera to 'Most compatible' (JPEG) "
        "or export the photo as JPEG.",
        "zh": "不支持 HEIC 照片：请把相机设为“兼容性最佳”（JPEG），或把照片导出为 JPEG。",
        "zh-Hant": "不支援 HEIC 照片：請把相機設為「最相容」（JPEG），或把照片輸出為 JPEG。",
    },
    "not_an_image": {
        "en": "This file is not a JPEG, PNG or WebP photo.",
        "zh": "这个文件不是 JPEG、PNG 或 WebP 照片。",
        "zh-Hant": "這個檔案不是 JPEG、PNG 或 WebP 照片。",
    },
    "empty_input": {
        "en": "The photo{label} is empty (0 bytes).",
        "zh": "照片{label}是空的（0 字节）。",
        "zh-Hant": "照片{label}是空的（0 位元組）。",
    },
    "too_large": {
        "en": "The photo{label} is {size:.1f} MB; the limit is {limit:.0f} MB.",
        "zh": "照片{label}有 {size:.1f} MB，上限是 {limit:.0f} MB。",
        "zh-Hant": "照片{label}有 {size:.1f} MB，上限是 {limit:.0f} MB。",
    },
    "too_large.pixels": {
        "en": "The photo{label} is {width}x{height} pixels; the limit is {limit:.0f} megapixels.",
        "zh": "照片{label}有 {width}x{height} 像素，上限是 {limit:.0f} 百万像素。",
        "zh-Hant": "照片{label}有 {width}x{height} 像素，上限是 {limit:.0f} 百萬像素。",
    },
    "too_large.file": {
        "en": "{path} is larger than the {limit} MB limit.",
        "zh": "{path} 超过了 {limit} MB 的上限。",
        "zh-Hant": "{path} 超過了 {limit} MB 的上限。",
    },
    "too_small": {
        "en": "The photo{label} is only {width}x{height} pixels.",
        "zh": "照片{label}只有 {width}x{height} 像素。",
        "zh-Hant": "照片{label}只有 {width}x{height} 像素。",
    },
    "bad_image": {
        "en": "The photo{label} could not be decoded; it may be damaged.",
        "zh": "照片{label}无法解码，可能已损坏。",
        "zh-Hant": "照片{label}無法解碼，可能已損壞。",
    },
    "unreadable_file": {
        "en": "Cannot read {path}: {detail}.",
        "zh": "无法读取 {path}。",
        "zh-Hant": "無法讀取 {path}。",
    },
    "unreadable_file.folder": {
        "en": "{path} is a folder, not a photo.",
        "zh": "{path} 是文件夹，不是照片。",
        "zh-Hant": "{path} 是資料夾，不是照片。",
    },
    "models_missing": {
        "en": "The recognition models could not be loaded ({detail}). "
        "Reinstall the package or train them (see models/MODEL_CARD.md).",
        "zh": "无法加载识别模型。请重新安装，或自行训练模型（见 models/MODEL_CARD.md）。",
        "zh-Hant": "無法載入辨識模型。請重新安裝，或自行訓練模型（見 models/MODEL_CARD.md）。",
    },
    "model_mismatch": {
        "en": "The classifier did not read every detected tile.",
        "zh": "分类模型没有读出每一张检测到的牌。",
        "zh-Hant": "分類模型沒有讀出每一張偵測到的牌。",
    },
    "bad_tiles.body": {
        "en": "The request must be an object with the tiles of the hand.",
        "zh": "请求必须是一个包含手牌的对象。",
        "zh-Hant": "請求必須是一個包含手牌的物件。",
    },
    "bad_tiles.list": {
        "en": "'{field}' must be a list of at most {most} tiles (or groups of them).",
        "zh": "牌的列表最多 {most} 张。",
        "zh-Hant": "牌的列表最多 {most} 張。",
    },
    "bad_tiles.hand": {
        "en": "A hand lays down at most {most} tiles; tap a smaller group.",
        "zh": "一手牌最多 {most} 张；请点一组较少的牌。",
        "zh-Hant": "一手牌最多 {most} 張；請點一組較少的牌。",
    },
    "bad_tiles.tile": {
        "en": "{where} is not a tile (an object with its code and box).",
        "zh": "{where} 不是一张牌（需要牌码和位置）。",
        "zh-Hant": "{where} 不是一張牌（需要牌碼和位置）。",
    },
    "bad_tiles.code": {
        "en": "{where} has no valid tile code.",
        "zh": "{where} 的牌码无效。",
        "zh-Hant": "{where} 的牌碼無效。",
    },
    "bad_tiles.box": {
        "en": "{where} needs a box of four numbers, x1 < x2 and y1 < y2.",
        "zh": "{where} 的位置必须是四个数，且 x1 < x2、y1 < y2。",
        "zh-Hant": "{where} 的位置必須是四個數，且 x1 < x2、y1 < y2。",
    },
    "bad_tiles.number": {
        "en": "{where} holds something that is not a number.",
        "zh": "{where} 含有不是数字的值。",
        "zh-Hant": "{where} 含有不是數字的值。",
    },
    "bad_tiles.range": {
        "en": "{where} holds a number out of range.",
        "zh": "{where} 含有超出范围的数字。",
        "zh-Hant": "{where} 含有超出範圍的數字。",
    },
    "bad_tiles.alternatives": {
        "en": "{where} has alternatives that are not a short list of tiles.",
        "zh": "{where} 的候选牌格式不对。",
        "zh-Hant": "{where} 的候選牌格式不對。",
    },
    "bad_tiles.probabilities": {
        "en": "{where} has a confidence and alternatives that add up to more than 1.",
        "zh": "{where} 的把握和候选牌概率加起来超过 1。",
        "zh-Hant": "{where} 的把握和候選牌機率加起來超過 1。",
    },
    "bad_tiles.outside": {
        "en": "{where} lies outside the photo, or is less than a pixel wide or high.",
        "zh": "{where} 不在照片里，或宽高不到一个像素。",
        "zh-Hant": "{where} 不在照片裡，或寬高不到一個像素。",
    },
    "bad_tiles.image": {
        "en": "'image' must be the photo's name, as text.",
        "zh": "照片名称必须是文字。",
        "zh-Hant": "照片名稱必須是文字。",
    },
    "bad_tiles.up": {
        "en": "{where} has a face direction that is not two numbers.",
        "zh": "{where} 的牌面方向必须是两个数。",
        "zh-Hant": "{where} 的牌面方向必須是兩個數。",
    },
    "bad_tiles.look": {
        "en": "{where} has a look that is not one the reader gave.",
        "zh": "{where} 的牌的样子不是识别结果给出的。",
        "zh-Hant": "{where} 的牌的樣子不是辨識結果給出的。",
    },
    "bad_tiles.size": {
        "en": "'size' must be the photo's width and height in pixels.",
        "zh": "“size”必须是照片的宽和高（像素）。",
        "zh-Hant": "「size」必須是照片的寬和高（像素）。",
    },
    "bad_tiles.group": {
        "en": "{where} is not a group of tiles with a known kind.",
        "zh": "{where} 不是已知类型的一组牌。",
        "zh-Hant": "{where} 不是已知類型的一組牌。",
    },
    "bad_exemplars.list": {
        "en": "'exemplars' must be a list of at most {most} named tiles.",
        "zh": "“exemplars”必须是最多 {most} 张已确认牌的列表。",
        "zh-Hant": "「exemplars」必須是最多 {most} 張已確認牌的列表。",
    },
    "bad_exemplars.item": {
        "en": "Each of 'exemplars' must be an object with a tile code (not a back) and its look.",
        "zh": "“exemplars”的每一项必须包含牌码（不能是牌背）和牌的样子。",
        "zh-Hant": "「exemplars」的每一項必須包含牌碼（不能是牌背）和牌的樣子。",
    },
    "bad_exemplars.look": {
        "en": "A look in 'exemplars' is not one the reader gave.",
        "zh": "“exemplars”里有一项牌的样子不是识别结果给出的。",
        "zh-Hant": "「exemplars」裡有一項牌的樣子不是辨識結果給出的。",
    },
    "no_looks": {
        "en": "This classifier gives no looks of the tiles, so no set can be taught with "
        "it; reinstall the bundled models.",
        "zh": "这个分类模型不给出牌的样子，无法教牌；请重新安装自带的模型。",
        "zh-Hant": "這個分類模型不給出牌的樣子，無法教牌；請重新安裝內建的模型。",
    },
    "tileset.count": {
        "en": "Found {found} tiles; a set is taught from one tile of each kind laid "
        "out in order: 34 tiles, or 42 with the flowers. Photograph them from above, "
        "every tile in view.",
        "zh": "找到 {found} 张牌；教牌需要每种牌各一张按顺序摆好：34 张，连花牌 42 张。"
        "请从上方拍，每张牌都要拍进去。",
        "zh-Hant": "找到 {found} 張牌；教牌需要每種牌各一張按順序擺好：34 張，連花牌 42 張。"
        "請從上方拍，每張牌都要拍進去。",
    },
    "tileset.order": {
        "en": "Only {agree} of the {count} tiles read as their places say: lay out 1-9 of "
        "each suit, then East South West North Red Green White (and the flowers), row by "
        "row from the left, and photograph the rows upright.",
        "zh": "{count} 张牌里只有 {agree} 张与摆放位置相符：请每种花色按 1-9 摆，"
        "再摆东南西北中发白（和花牌），一行一行从左到右，正着拍照。",
        "zh-Hant": "{count} 張牌裡只有 {agree} 張與擺放位置相符：請每種花色按 1-9 擺，"
        "再擺東南西北中發白（和花牌），一行一行從左到右，正著拍照。",
    },
}


class VisionError(McrError):
    """An error of the photo reader."""

    messages = MESSAGES


class PhotoError(VisionError):
    """A photo that cannot be read (the photo's problem)."""


class ModelError(VisionError):
    """The recognition models are missing or unusable (an installation problem, not the photo's)."""


class TileListError(VisionError):
    """Tiles sent back to be read again that are not tiles of a result (a bad request)."""
