// Chinese / English texts of the page and the language switch (kept in localStorage).
"use strict";

const MCRI18n = (() => {
  const T = {
    app_title: ["国标麻将计分", "MCR Scorer"],
    nav_score: ["算番", "Score"],
    nav_game: ["记分表", "Game sheet"],
    photo: ["拍照识别", "Photo"],
    take_photo: ["拍照", "Take photo"],
    upload_photo: ["上传照片", "Upload photo"],
    reading: ["正在识别…", "Reading the tiles…"],
    uploading: ["正在上传…", "Uploading…"],
    tap_box_hint: ["点照片上的框或下面的牌即可改正。橙色＝不确定，紫色＝按规则改过。",
      "Tap a box on the photo or a tile below to fix it. Orange = uncertain, purple = changed by the rules."],
    hand: ["手牌", "Hand"],
    keyboard: ["牌键盘", "Tile keyboard"],
    meld_needs: ["手牌里要有 {tiles}。", "The hand needs {tiles} for that."],
    more_tiles: ["还差 {n} 张牌。", "{n} more tile(s) to enter."],
    err_not_winning: ["不是和牌", "Not a winning hand"],
    err_wrong_tile_count: ["牌数不对", "Wrong number of tiles"],
    err_too_many_copies: ["同一张牌超过 4 张", "More than 4 of a tile"],
    err_contradictory_flags: ["和牌情况互相矛盾", "The situation contradicts the hand"],
    err_no_winning_tile: ["缺少和张", "No winning tile"],
    err_bad_meld: ["副露不是吃、碰或杠", "A meld is no chow, pung or kong"],
    err_bad_meld_number: ["副露的数字不对", "Wrong meld number"],
    err_bad_character: ["写法有误", "Cannot read the notation"],
    err_bad_tile: ["写法有误", "Cannot read the notation"],
    err_unmatched_bracket: ["括号没有配对", "A bracket is not closed"],
    err_empty_hand: ["没有牌", "No tiles"],
    record: ["记入记分表", "Record in the game sheet"],
    record_hint: ["把这手牌记到一局的记分表上：和牌者是上面选的门风。",
      "Add this hand to a game's sheet: the winner is the player of the seat wind chosen above."],
    record_game: ["牌局", "Game"],
    record_discarder: ["点炮者", "Discarder"],
    record_winner: ["和牌者", "Winner"],
    record_round: ["这局下一手：第 {n} 手，{round}风圈。", "This game's next hand: hand {n}, {round} round."],
    record_use_winds: ["用这局的风", "Use its winds"],
    record_btn: ["记录", "Record"],
    record_none: ["还没有进行中的牌局：先在记分表里开一局。", "No game in progress: start one in the game sheet first."],
    record_done: ["已记为第 {n} 手。", "Recorded as hand {n}."],
    record_open: ["打开记分表", "Open the sheet"],
    hands_played: ["手", "hands"],
    not_winning_short: ["未和牌", "Not a win"],
    clear: ["清空", "Clear"],
    use_notation: ["使用", "Use"],
    mode_concealed: ["手牌", "Tiles"],
    mode_winning: ["和张", "Winning tile"],
    mode_chow: ["吃", "Chow"],
    mode_pung: ["碰", "Pung"],
    mode_kong: ["明杠", "Kong"],
    mode_ckong: ["暗杠", "Concealed kong"],
    situation: ["和牌情况", "How it was won"],
    discard: ["点和", "On a discard"],
    self_drawn: ["自摸", "Self-drawn"],
    fourth_tile: ["和绝张 (第四张)", "Last of its kind (4th tile)"],
    kong_self: ["杠上开花", "Out on a kong replacement"],
    kong_discard: ["抢杠和", "Robbing the kong"],
    last_self: ["妙手回春 (最后一张牌)", "Last tile of the wall"],
    last_discard: ["海底捞月 (最后一张打出的牌)", "Last discard"],
    seat_wind: ["门风", "Seat wind"],
    round_wind: ["圈风", "Round wind"],
    flowers: ["花牌", "Flowers"],
    breakdown: ["番数", "Fan breakdown"],
    empty_hint: ["拍一张照片，或用下面的键盘输入手牌。", "Take a photo, or enter the hand with the tile keyboard."],
    referee: ["裁判核对", "Referee check"],
    referee_hint: ["输入报的番种（名称或编号，用逗号分隔）或总番数。",
      "Enter the claimed fans (names or numbers, comma separated) or the claimed total."],
    claim_placeholder: ["清一色, 平和 或 22, 63", "Full Flush, All Chows or 22, 63"],
    claimed_total: ["报的总番数", "Claimed total"],
    check: ["核对", "Check"],
    melds: ["副露", "Melds"],
    concealed: ["手牌", "Concealed"],
    winning: ["和张", "Winning tile"],
    no_tiles: ["还没有牌。", "No tiles yet."],
    total: ["合计", "Total"],
    fan_unit: ["番", "fan"],
    meets: ["达到起和 8 番", "Reaches the minimum of 8"],
    below: ["不足 8 番，不能和牌", "Below the minimum of 8: not a valid win"],
    excluded_show: ["显示不计的番种", "Show fans not counted"],
    excluded_hide: ["隐藏不计的番种", "Hide fans not counted"],
    payments: ["支付", "Payments"],
    pay_winner: ["和牌者", "Winner"],
    pay_discarder: ["点炮者", "Discarder"],
    pay_other: ["其他每家", "Each other player"],
    pay_others: ["其他每家", "Each other player"],
    pay_wrong_win: ["错和者", "Declarer (wrong win)"],
    pay_wrong_win_others: ["其他每家", "Each other player"],
    wrong_win_note: ["不足8番，申报和牌为错和：申报者赔其他每家各10分，牌局继续。", "Under 8 fans a declared win is a wrong win (错和): the declarer pays 10 to each other player and play goes on."],
    not_win: ["不能计分", "Cannot score"],
    from_left: ["上家", "Left"],
    from_opposite: ["对家", "Opposite"],
    from_right: ["下家", "Right"],
    concealed_kong: ["暗杠", "Concealed"],
    promoted: ["加杠", "Promoted"],
    claimed_tile: ["吃的牌", "Claimed tile"],
    chow: ["吃", "Chow"],
    pung: ["碰", "Pung"],
    kong: ["杠", "Kong"],
    remove: ["删除", "Remove"],
    remove_meld: ["拆开", "Break up"],
    make_winning: ["设为和张", "Make winning tile"],
    to_concealed: ["放回手牌", "Back to hand"],
    form_pung: ["组成碰", "Make a pung"],
    form_kong: ["组成杠", "Make a kong"],
    form_chow: ["组成吃", "Make a chow"],
    replace_with: ["换成", "Replace with"],
    maybe: ["可能是", "Maybe"],
    tile: ["牌", "Tile"],
    correct: ["报番正确", "The claim is correct"],
    wrong: ["报番有误", "The claim differs"],
    missing: ["漏报", "Missing"],
    extra: ["多报", "Not in the hand"],
    miscounted: ["次数不对", "Counted wrongly"],
    claimed: ["报", "claimed"],
    actual: ["实际", "actual"],
    correct_total: ["正确总番", "Correct total"],
    claimed_total_is: ["报的总番", "Claimed total"],
    net_error: ["连不上服务器。", "Could not reach the server."],
    too_big: ["照片太大（上限 25 MB）。", "The photo is too large (limit 25 MB)."],
    hand_full: ["牌已经够了：先删一张。", "The hand is full: remove a tile first."],
    bad_chow: ["吃只能从 1-7 的序数牌开始。", "A chow starts on a suited tile 1-7."],
    no_honor_flower: ["花牌只算在花牌里。", "Flowers are counted apart."],
    form: ["牌型", "Form"],
    recognized: ["识别出的手牌", "Read from the photo"],
    hand_null: ["没有认出完整的和牌，请检查下面的牌。", "No complete hand was read; check the tiles below."],
  };

  let lang = localStorage.getItem("mcr-lang") || ((navigator.language || "").startsWith("zh") ? "zh" : "en");
  const listeners = [];

  function t(key) {
    const pair = T[key];
    if (!pair) return key;
    return lang === "zh" ? pair[0] : pair[1];
  }

  function apply() {
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
    const btn = document.getElementById("lang-switch");
    if (btn) btn.textContent = lang === "zh" ? "EN" : "中文";
    listeners.forEach((fn) => fn(lang));
  }

  function set(next) {
    lang = next;
    localStorage.setItem("mcr-lang", lang);
    apply();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const btn = document.getElementById("lang-switch");
    if (btn) btn.addEventListener("click", () => set(lang === "zh" ? "en" : "zh"));
    apply();
  });

  return { t, set, get lang() { return lang; }, onChange: (fn) => listeners.push(fn), apply };
})();
