// The page's own texts in simplified Chinese, traditional Chinese and English,
// and the language switch (kept in localStorage, shared by every page). Tile
// and fan names come from the library (/library.js); texts the server writes
// arrive in the chosen language because every request says it (langHeaders).
import { FANS, LANGS, TILES } from "/library.js";

// key: [zh, zh-Hant, en]
const T = {
  app_title: ["国标麻将计分", "國標麻將計分", "MCR Scorer"],
  nav_score: ["算番", "算番", "Score"],
  nav_game: ["记分表", "記分表", "Game sheet"],
  nav_rankings: ["排名", "排名", "Rankings"],
  lang_label: ["语言", "語言", "Language"],
  photo: ["拍照识别", "拍照識別", "Photo"],
  take_photo: ["拍照", "拍照", "Take photo"],
  upload_photo: ["上传照片", "上傳照片", "Upload photo"],
  reading: ["正在识别…", "正在識別…", "Reading the tiles…"],
  uploading: ["正在上传…", "正在上傳…", "Uploading…"],
  tap_box_hint: ["点照片上的框或下面的牌即可改正。橙色＝不确定，紫色＝按规则改过。", "點照片上的框或下面的牌即可改正。橙色＝不確定，紫色＝按規則改過。", "Tap a box on the photo or a tile below to fix it. Orange = uncertain, purple = changed by the rules."],
  fourth_seen: ["照片里能看到和牌的另外三张：已勾选和绝张。", "照片裡能看到和牌的另外三張：已勾選和絕張。", "The other three copies of the winning tile are in view: Last of its kind (和绝张) is ticked."],
  ignored_hint: ["灰框是不属于手牌的牌（牌墙、弃牌、别家）；点一下可把那一组当作手牌。", "灰框是不屬於手牌的牌（牌牆、棄牌、別家）；點一下可把那一組當作手牌。", "Grey boxes are tiles that are not the hand (walls, discards, other players); tap one to make its group the hand."],
  table_set: ["这桌的牌已学会 {n} 张（来自摆好的整副牌和记过分的手牌），照片读得更准。", "這桌的牌已學會 {n} 張（來自擺好的整副牌和記過分的手牌），照片讀得更準。", "Learnt {n} tiles of this table's set (from its laid-out set and the hands scored here); photos read them better."],
  table_set_taught: ["其中 {n} 张来自摆好的整副牌。", "其中 {n} 張來自擺好的整副牌。", "{n} of them from its laid-out set."],
  table_set_forget: ["忘掉（换了一副牌）", "忘掉（換了一副牌）", "Forget (new tile set)"],
  teach_set: ["教这桌的牌（一张照片）", "教這桌的牌（一張照片）", "Teach this table's tile set (one photo)"],
  teach_help: ["每种牌各摆一张：万、饼、条各 1-9，东南西北中发白（有花牌也摆上：梅兰菊竹春夏秋冬）。一种一行或接着摆，从左到右，拍一张照片。", "每種牌各擺一張：萬、餅、條各 1-9，東南西北中發白（有花牌也擺上：梅蘭菊竹春夏秋冬）。一種一行或接著擺，從左到右，拍一張照片。", "Lay out one tile of each kind: characters, dots and bamboos 1-9 each, then East South West North Red Green White (and the flowers, plum to winter, if the set has them), a row each or running on, left to right, and take one photo."],
  teach_photo: ["拍摆好的牌", "拍擺好的牌", "Photo of the laid-out set"],
  teach_reading: ["正在学这副牌…", "正在學這副牌…", "Learning the set…"],
  teach_not_kept: ["这个浏览器不能保存（无痕模式或存储已满），学会的牌留不下来。", "這個瀏覽器不能儲存（無痕模式或儲存空間已滿），學會的牌留不下來。", "This browser cannot keep anything (private mode or storage full), so the set cannot be kept."],
  teach_hall_photo: ["为整个赛场教这副牌（需要场馆 PIN）", "為整個賽場教這副牌（需要場館 PIN）", "Teach it for the whole hall (hall PIN)"],
  taught_hall: ["整个赛场学会了这副牌：{n} 张。每张桌子的照片都会照着它读。", "整個賽場學會了這副牌：{n} 張。每張桌子的照片都會照著它讀。", "The whole hall learnt this set: {n} tiles. Every table's photos are read with it."],
  hall_set: ["赛场的牌：已学会 {n} 张，所有桌子的照片都照着它读。", "賽場的牌：已學會 {n} 張，所有桌子的照片都照著它讀。", "This hall's set: {n} tiles learnt; every table's photos are read with it."],
  hall_set_forget: ["忘掉赛场的牌", "忘掉賽場的牌", "Forget the hall's set"],
  taught_as: ["{tile}（原读作{read}）", "{tile}（原讀作{read}）", "{tile} (read as {read})"],
  taught_renamed: ["按位置改名的牌：{list}。", "按位置改名的牌：{list}。", "Named by their places: {list}."],
  taught: ["学会了这副牌：{n} 张（其中 {agreed} 张本来就认对了）。之后的照片会照着它读。", "學會了這副牌：{n} 張（其中 {agreed} 張本來就認對了）。之後的照片會照著它讀。", "Learnt this set: {n} tiles ({agreed} of them read right before). Photos from now on are read with it."],
  group_is: ["{kind}，{n} 张", "{kind}，{n} 張", "{kind}: {n}"],
  make_hand: ["这组是手牌", "這組是手牌", "This group is the hand"],
  kind_discards: ["弃牌", "棄牌", "Discards"],
  kind_wall: ["牌墙", "牌牆", "Wall"],
  kind_other_hand: ["别家的手牌", "別家的手牌", "Another player's hand"],
  kind_other_meld: ["别家的副露", "別家的副露", "Another player's meld"],
  kind_stray: ["散牌", "散牌", "Loose tiles"],
  hand_null: ["没有认出完整的和牌，请检查下面的牌。", "沒有認出完整的和牌，請檢查下面的牌。", "No complete hand was read; check the tiles below."],
  photo_warnings: ["识别提示 {n} 条", "辨識提示 {n} 條", "{n} note(s) from the photo reader"],
  net_error: ["连不上服务器。", "連不上伺服器。", "Could not reach the server."],
  too_big: ["照片太大（上限 25 MB）。", "照片太大（上限 25 MB）。", "The photo is too large (limit 25 MB)."],
  server_error: ["服务器出错了（HTTP {n}），请再试一次。", "伺服器出錯了（HTTP {n}），請再試一次。", "The server answered with an error (HTTP {n}); please try again."],
  hand: ["手牌", "手牌", "Hand"],
  clear: ["清空", "清空", "Clear"],
  use_notation: ["使用", "使用", "Use"],
  notation_label: ["牌谱写法", "牌譜寫法", "Notation"],
  keyboard: ["牌键盘", "牌鍵盤", "Tile keyboard"],
  backspace: ["删除最后一张", "刪除最後一張", "Remove the last tile"],
  mode_concealed: ["手牌", "手牌", "Tiles"],
  mode_winning: ["和张", "和張", "Winning tile"],
  mode_chow: ["吃", "吃", "Chow"],
  mode_pung: ["碰", "碰", "Pung"],
  mode_kong: ["明杠", "明槓", "Kong"],
  mode_ckong: ["暗杠", "暗槓", "Concealed kong"],
  meld_needs: ["手牌里要有 {tiles}。", "手牌裡要有 {tiles}。", "The hand needs {tiles} for that."],
  more_tiles: ["还差 {n} 张牌。", "還差 {n} 張牌。", "{n} more tile(s) to enter."],
  melds: ["副露", "副露", "Melds"],
  concealed: ["手牌", "手牌", "Concealed"],
  winning: ["和张", "和張", "Winning tile"],
  no_tiles: ["还没有牌。", "還沒有牌。", "No tiles yet."],
  from_left: ["上家", "上家", "Left"],
  from_opposite: ["对家", "對家", "Opposite"],
  from_right: ["下家", "下家", "Right"],
  giver: ["谁打出的", "誰打出的", "Given by"],
  concealed_kong: ["暗杠", "暗槓", "Concealed"],
  promoted: ["加杠", "加槓", "Promoted"],
  claimed_tile: ["吃的牌", "吃的牌", "Claimed tile"],
  chow: ["吃", "吃", "Chow"],
  pung: ["碰", "碰", "Pung"],
  kong: ["杠", "槓", "Kong"],
  remove: ["删除", "刪除", "Remove"],
  remove_meld: ["拆开", "拆開", "Break up"],
  make_winning: ["设为和张", "設為和張", "Make winning tile"],
  to_concealed: ["放回手牌", "放回手牌", "Back to hand"],
  form_pung: ["组成碰", "組成碰", "Make a pung"],
  form_kong: ["组成杠", "組成槓", "Make a kong"],
  form_chow: ["组成吃", "組成吃", "Make a chow"],
  replace_with: ["换成", "換成", "Replace with"],
  maybe: ["可能是", "可能是", "Maybe"],
  close: ["关闭", "關閉", "Close"],
  hand_full: ["牌已经够了：先删一张。", "牌已經夠了：先刪一張。", "The hand is full: remove a tile first."],
  bad_chow: ["吃只能从 1-7 的序数牌开始。", "吃只能從 1-7 的序數牌開始。", "A chow starts on a suited tile 1-7."],
  situation: ["和牌情况", "和牌情況", "How it was won"],
  discard: ["点和", "點和", "On a discard"],
  self_drawn: ["自摸", "自摸", "Self-drawn"],
  fourth_tile: ["和绝张 (第四张)", "和絕張 (第四張)", "Last of its kind (4th tile)"],
  kong_self: ["杠上开花", "槓上開花", "Out on a kong replacement"],
  kong_discard: ["抢杠和", "搶槓和", "Robbing the kong"],
  last_self: ["妙手回春 (最后一张牌)", "妙手回春 (最後一張牌)", "Last tile of the wall"],
  last_discard: ["海底捞月 (最后一张打出的牌)", "海底撈月 (最後一張打出的牌)", "Last discard"],
  seat_wind: ["门风", "門風", "Seat wind"],
  round_wind: ["圈风", "圈風", "Round wind"],
  flowers: ["花牌", "花牌", "Flowers"],
  fewer_flowers: ["少一张花", "少一張花", "One flower less"],
  more_flowers: ["多一张花", "多一張花", "One flower more"],
  breakdown: ["番数", "番數", "Fan breakdown"],
  empty_hint: ["拍一张照片，或用下面的键盘输入手牌。", "拍一張照片，或用下面的鍵盤輸入手牌。", "Take a photo, or enter the hand with the tile keyboard."],
  total: ["合计", "合計", "Total"],
  fan_unit: ["番", "番", "fan"],
  meets: ["达到起和 8 番", "達到起和 8 番", "Reaches the minimum of 8"],
  below: ["不足 8 番，不能和牌", "不足 8 番，不能和牌", "Below the minimum of 8: not a valid win"],
  excluded_show: ["显示不计的番种", "顯示不計的番種", "Show fans not counted"],
  excluded_hide: ["隐藏不计的番种", "隱藏不計的番種", "Hide fans not counted"],
  excluded_by: ["已含在{fan}里，不再计", "已含在{fan}裡，不再計", "Included in {fan}, not counted again"],
  excluded_rule: ["按计番原则不计", "按計番原則不計", "Not counted by the counting principles"],
  payments: ["支付", "支付", "Payments"],
  pay_winner: ["和牌者", "和牌者", "Winner"],
  pay_discarder: ["点炮者", "點炮者", "Discarder"],
  pay_other: ["其他每家", "其他每家", "Each other player"],
  pay_others: ["其他每家", "其他每家", "Each other player"],
  pay_wrong_win: ["错和者", "錯和者", "Declarer (wrong win)"],
  pay_wrong_win_others: ["其他每家", "其他每家", "Each other player"],
  wrong_win_note: ["不足8番，申报和牌为错和：申报者赔其他每家各{pay}分，牌局继续。", "不足8番，申報和牌為錯和：申報者賠其他每家各{pay}分，牌局繼續。", "Under 8 fans a declared win is a wrong win: the declarer pays {pay} to each other player and play goes on."],
  not_win: ["不能计分", "不能計分", "Cannot score"],
  not_winning_short: ["未和牌", "未和牌", "Not a win"],
  err_not_winning: ["不是和牌", "不是和牌", "Not a winning hand"],
  err_kong_unnamed: ["暗杠未命名", "暗槓未命名", "A kong to name"],
  name_kong: ["有一组暗杠全部扣着，照片看不出是什么牌：点其中一张，选出这组杠的牌。", "有一組暗槓全部扣著，照片看不出是什麼牌：點其中一張，選出這組槓的牌。", "A concealed kong lies all face down, so the photo cannot tell its tile: tap one of its tiles and pick the kong's tile."],
  err_wrong_tile_count: ["牌数不对", "牌數不對", "Wrong number of tiles"],
  err_too_many_copies: ["同一张牌超过 4 张", "同一張牌超過 4 張", "More than 4 of a tile"],
  err_contradictory_flags: ["和牌情况互相矛盾", "和牌情況互相矛盾", "The situation contradicts the hand"],
  err_no_winning_tile: ["缺少和张", "缺少和張", "No winning tile"],
  err_bad_meld: ["副露不是吃、碰或杠", "副露不是吃、碰或槓", "A meld is no chow, pung or kong"],
  err_bad_meld_number: ["副露的数字不对", "副露的數字不對", "Wrong meld number"],
  err_bad_character: ["写法有误", "寫法有誤", "Cannot read the notation"],
  err_bad_tile: ["写法有误", "寫法有誤", "Cannot read the notation"],
  err_unmatched_bracket: ["括号没有配对", "括號沒有配對", "A bracket is not closed"],
  err_empty_hand: ["没有牌", "沒有牌", "No tiles"],
  referee: ["裁判核对", "裁判核對", "Referee check"],
  referee_hint: ["输入报的番种（名称或编号，用逗号分隔）或总番数。", "輸入報的番種（名稱或編號，用逗號分隔）或總番數。", "Enter the claimed fans (names or numbers, comma separated) or the claimed total."],
  claim_placeholder: ["清一色, 平和 或 22, 63", "清一色, 平和 或 22, 63", "Full Flush, All Chows or 22, 63"],
  claimed_total: ["报的总番数", "報的總番數", "Claimed total"],
  check: ["核对", "核對", "Check"],
  correct: ["报番正确", "報番正確", "The claim is correct"],
  wrong: ["报番有误", "報番有誤", "The claim differs"],
  missing: ["漏报", "漏報", "Missing"],
  extra: ["多报", "多報", "Not in the hand"],
  miscounted: ["次数不对", "次數不對", "Counted wrongly"],
  claimed: ["报", "報", "claimed"],
  actual: ["实际", "實際", "actual"],
  correct_total: ["正确总番", "正確總番", "Correct total"],
  claimed_total_is: ["报的总番", "報的總番", "Claimed total"],
  record: ["记入记分表", "記入記分表", "Record in the game sheet"],
  record_hint: ["把这手牌记到一局的记分表上：和牌者是上面选的门风。", "把這手牌記到一局的記分表上：和牌者是上面選的門風。", "Add this hand to a game's sheet: the winner is the player of the seat wind chosen above."],
  record_game: ["牌局", "牌局", "Game"],
  record_discarder: ["点炮者", "點炮者", "Discarder"],
  record_winner: ["和牌者", "和牌者", "Winner"],
  record_round: ["这局下一盘：第 {n} 盘，{round}风圈。", "這局下一盤：第 {n} 盤，{round}風圈。", "This game's next hand: hand {n}, {round} round."],
  record_use_winds: ["用这局的风", "用這局的風", "Use its winds"],
  record_btn: ["记录", "記錄", "Record"],
  record_none: ["还没有进行中的牌局：先在记分表里开一局。", "還沒有進行中的牌局：先在記分表裡開一局。", "No game in progress: start one in the game sheet first."],
  record_done: ["已记为第 {n} 盘。", "已記為第 {n} 盤。", "Recorded as hand {n}."],
  record_open: ["打开记分表", "打開記分表", "Open the sheet"],
  hands_played: ["盘", "盤", "hands"],
  games_title: ["记分表", "記分表", "Games"],
  new_game: ["新的一局", "新的一局", "New game"],
  seat_order_hint: ["按第一圈座位顺序填写", "按第一圈座位順序填寫", "Names in first-round seat order"],
  east: ["东", "東", "East"],
  south: ["南", "南", "South"],
  west: ["西", "西", "West"],
  north: ["北", "北", "North"],
  game_name: ["名称", "名稱", "Name"],
  tournament: ["比赛", "比賽", "Tournament"],
  session: ["轮次", "輪次", "Session"],
  table_no: ["桌号", "桌號", "Table"],
  start: ["开始", "開始", "Start"],
  all_games: ["所有对局", "所有對局", "All games"],
  col_hands: ["盘数", "盤數", "Hands"],
  col_players: ["选手", "選手", "Players"],
  no_games: ["还没有对局。", "還沒有對局。", "No games yet."],
  rankings_title: ["排名", "排名", "Rankings"],
  show: ["显示", "顯示", "Show"],
  col_rank: ["名次", "名次", "Rank"],
  col_name: ["名称", "名稱", "Name"],
  col_team: ["队", "隊", "Team"],
  col_table_points: ["标准分", "標準分", "Table points"],
  col_scores: ["局分", "局分", "Scores"],
  col_best: ["单局最高", "單局最高", "Best"],
  col_games: ["局数", "局數", "Games"],
  players: ["个人", "個人", "Players"],
  teams: ["团体", "團體", "Teams"],
  ties_note: ["标准分相同时依次比较：局分之和、单局最高标准分、单局高标准分次数（《竞赛规则》第十一条）。", "標準分相同時依次比較：局分之和、單局最高標準分、單局高標準分次數（《競賽規則》第十一條）。", "Ties: total scores, then the best single game, then the number of high single games (rules, article 11)."],
  game_title: ["第 {n} 局", "第 {n} 局", "Game {n}"],
  result_win: ["和牌", "和牌", "Win"],
  result_draw: ["荒牌", "荒牌", "Draw"],
  winner: ["和牌者", "和牌者", "Winner"],
  from: ["点炮", "點炮", "From"],
  fans_incl_flowers: ["番数（含花）", "番數（含花）", "Fans (flowers included)"],
  fewer_fans: ["少一番", "少一番", "One fan less"],
  more_fans: ["多一番", "多一番", "One fan more"],
  penalties: ["罚分", "罰分", "Penalties"],
  pen_player: ["受罚者", "受罰者", "Player"],
  pen_kind: ["罚分种类", "罰分種類", "Kind"],
  pen_points: ["罚分", "罰分", "Points"],
  kind_wrong_win: ["错和 (−30)", "錯和 (−30)", "Wrong win (−30)"],
  kind_false_win: ["诈和 (−60)", "詐和 (−60)", "False win (−60)"],
  kind_deduction: ["罚分", "罰分", "Deduction"],
  pen_wrong_win: ["错和", "錯和", "wrong win"],
  pen_false_win: ["诈和", "詐和", "false win"],
  pen_deduction: ["罚分", "罰分", "deduction"],
  add: ["加", "加", "Add"],
  remove_penalty: ["删掉这项罚分", "刪掉這項罰分", "Remove this penalty"],
  recorder: ["记录人", "記錄人", "By"],
  record_hand: ["记录", "記錄", "Record"],
  save_hand: ["保存第 {n} 盘", "保存第 {n} 盤", "Save hand {n}"],
  cancel: ["取消", "取消", "Cancel"],
  undo_last: ["撤销上一盘", "撤銷上一盤", "Undo last"],
  undo_confirm: ["撤销上一盘？", "撤銷上一盤？", "Remove the last hand?"],
  choose_winner: ["请选和牌者", "請選和牌者", "Choose the winner"],
  col_round: ["圈", "圈", "Round"],
  col_dealer: ["庄", "莊", "Dealer"],
  col_result: ["结果", "結果", "Result"],
  row_score: ["局分", "局分", "Score"],
  row_table_points: ["标准分", "標準分", "Table points"],
  tap_hand_hint: ["点一盘可修改。", "點一盤可修改。", "Tap a hand to correct it."],
  correcting: ["修改第 {n} 盘（{round}风圈，庄 {dealer}）", "修改第 {n} 盤（{round}風圈，莊 {dealer}）", "Correcting hand {n} ({round} round, dealer {dealer})"],
  next_hand: ["第 {n} 盘：{round}风圈，庄 {dealer}", "第 {n} 盤：{round}風圈，莊 {dealer}", "Hand {n}: {round} round, dealer {dealer}"],
  game_complete: ["本局结束（16 盘）", "本局結束（16 盤）", "Game complete (16 hands)"],
  draw_text: ["荒牌", "荒牌", "draw"],
  self_drawn_text: ["自摸", "自摸", "self-drawn"],
  back_to_games: ["回到记分表", "回到記分表", "Back to the games"],
  back_to_table: ["回到算番页", "回到算番頁", "Back to the table page"],
  join_title: ["场馆 PIN", "場館 PIN", "Hall PIN"],
  join_not_needed: ["本服务器无需 PIN。", "本伺服器無需 PIN。", "This server needs no PIN."],
  join_hint: ["输入服务器上显示的 PIN，本平板即可记录和修改记分表。", "輸入伺服器上顯示的 PIN，本平板即可記錄和修改記分表。", "Enter the PIN shown at the server to record and correct game sheets from this tablet."],
  join_btn: ["加入", "加入", "Join"],
  enter_pin: ["输入场馆 PIN", "輸入場館 PIN", "Enter the hall PIN"],
};

const COLUMN = { zh: 0, "zh-Hant": 1, en: 2 };
const STORE_KEY = "mcr-lang";
const BY_CODE = new Map(TILES.map((x) => [x.code, x]));

/** The product language of a browser language tag (zh-TW -> zh-Hant), or null. */
export function productLang(tag) {
  // as the server's scorer.errors.pick_lang: the script before the region, Cantonese traditional
  const parts = String(tag || "").toLowerCase().replace(/_/g, "-").split("-");
  if (!["zh", "cmn", "yue"].includes(parts[0])) return parts[0] === "en" ? "en" : null;
  if (parts.includes("hans") || parts.includes("hant")) return parts.includes("hans") ? "zh" : "zh-Hant";
  if (parts.some((p) => ["tw", "hk", "mo"].includes(p))) return "zh-Hant";
  const simplified = parts.some((p) => ["cn", "sg", "my"].includes(p));
  return parts[0] === "yue" && !simplified ? "zh-Hant" : "zh";
}

function initialLang() {
  const saved = localStorage.getItem(STORE_KEY);
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const lang = productLang(tag);
    if (lang) return lang;
  }
  return "en";
}

let lang = initialLang();
const listeners = [];

export const getLang = () => lang;
export const isChinese = () => lang !== "en";

/** The text of `key` in the page's language, `{name}` filled from `params`. */
export function t(key, params = {}) {
  const row = T[key];
  const text = row ? row[COLUMN[lang]] : key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A tile's name in the page's language (the library's names). */
export function tileName(code) {
  const x = BY_CODE.get(code);
  return x ? x.names[lang] : code;
}

/** A fan's name by its number; on the English page its Chinese name second. */
export function fanNames(id) {
  const fan = FANS[id];
  if (!fan) return [String(id), ""];
  return [fan.names[lang], lang === "en" ? fan.names.zh : ""];
}

/** Headers that ask the server for its texts in the page's language. */
export function langHeaders() {
  return { "Accept-Language": lang };
}

export function onChange(fn) { listeners.push(fn); }

/** The server writes its own pages (errors, the join page) in the language this cookie names. */
function rememberForServer() {
  document.cookie = `mcr-lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
}

function apply() {
  rememberForServer();
  document.documentElement.lang = lang === "zh" ? "zh-CN" : lang === "zh-Hant" ? "zh-Hant" : "en";
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nLabel)); });
  const picker = document.getElementById("lang-select");
  if (picker) picker.value = lang;
  listeners.forEach((fn) => fn(lang));
}

export function setLang(next) {
  if (!LANGS.includes(next)) return;
  lang = next;
  localStorage.setItem(STORE_KEY, lang);
  apply();
}

function init() {
  const picker = document.getElementById("lang-select");
  if (picker) picker.addEventListener("change", () => setLang(picker.value));
  apply();
}

// Module scripts run after the document is parsed: the page is there already.
init();
