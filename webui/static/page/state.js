// The table page's one state: the hand as a structure (melds, concealed tiles,
// winning tile, flowers), the situation, and the server's last answers.
export const WINDS = ["E", "S", "W", "N"];

export const state = {
  melds: [],       // {kind: "chow"|"pung"|"kong", tiles: [T], claimed: 0-3, promoted: bool}
  concealed: [],   // [T]
  winning: null,   // T | null
  flowers: [],     // [T]
  sit: { self_drawn: false, fourth_tile: false, kong: false, last_tile: false, seat_wind: "E", round_wind: "E" },
  notation: "",    // the library's notation of the hand (from /api/hand)
  recog: null,     // the recognition answer; its tiles stay editable
  group: null,     // the ignored group tapped on the photo (offered as the hand)
  photoUrl: null,
  result: null,
  error: null,
  options: null,
  mode: "concealed",
  highlight: null, // index of the tapped fan
  showExcluded: false,
  seq: 0,          // answers to older requests are dropped
};

/** A tile of the hand: its code and, when read from the photo, its box index. */
export const tile = (code, src = null) => ({ code, src });

export const $ = (id) => document.getElementById(id);

export function tileCount() {
  return state.concealed.length + 3 * state.melds.length + (state.winning ? 1 : 0);
}

export function isEmpty() {
  return !state.melds.length && !state.concealed.length && !state.winning && !state.flowers.length;
}

/** The hand as /api/hand reads it. */
export function handStructure() {
  return {
    melds: state.melds.map((m) => ({ kind: m.kind, tiles: m.tiles.map((x) => x.code), claimed: m.claimed, promoted: m.promoted })),
    concealed: state.concealed.map((x) => x.code),
    winning: state.winning ? state.winning.code : null,
  };
}

export function scoreRequest() {
  return { hand: state.notation, flowers: state.flowers.length, ...state.sit };
}

const views = [];
/** Register a view to redraw on every change of the hand or the answers. */
export function onRender(fn) { views.push(fn); }
export function render() { views.forEach((fn) => fn()); }
