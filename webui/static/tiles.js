// Tile pictures drawn by the page itself (an ivory tile with its face in SVG)
// and what the page asks of a tile code. The codes, their order and their
// names are the library's (/library.js), never a list kept here.
import { TILES } from "/library.js";

const BY_CODE = new Map(TILES.map((x) => [x.code, x]));

/** Every tile code in the library's order (playing tiles, flowers, back). */
export const CODES = TILES.map((x) => x.code);
export const PLAYING = TILES.filter((x) => x.kind === "suited" || x.kind === "honor").map((x) => x.code);
export const FLOWERS = TILES.filter((x) => x.kind === "flower").map((x) => x.code);

/** The library's entry for a code: kind, suit, rank, names. */
export const tileInfo = (code) => BY_CODE.get(code) || { code, kind: "unknown", names: {} };
export const isSuited = (code) => BY_CODE.get(code)?.kind === "suited";
export const isFlower = (code) => BY_CODE.get(code)?.kind === "flower";

/** The tile `k` ranks above `code` in its suit, or null past 9 or for an honor. */
export function nextCode(code, k) {
  const x = BY_CODE.get(code);
  if (!x || x.kind !== "suited" || x.rank + k > 9) return null;
  return CODES[x.index + k];
}

/** Sort order of tiles: the library's (the notation's) order. */
export function byHandOrder(a, b) {
  return (BY_CODE.get(a)?.index ?? 99) - (BY_CODE.get(b)?.index ?? 99);
}

/** The character a tile face shows, from the library's simplified names. */
const FACE = (code) => (BY_CODE.get(code)?.names.zh || "?");
const NUMERAL = (n) => FACE(`${n}m`)[0];

const RED = "#c0392b", GREEN = "#1e7d4f", BLUE = "#1f4e8c", INK = "#1c2430";

const DOTS = {
  1: [[30, 40]],
  2: [[30, 22], [30, 58]],
  3: [[16, 18], [30, 40], [44, 62]],
  4: [[19, 24], [41, 24], [19, 56], [41, 56]],
  5: [[18, 20], [42, 20], [30, 40], [18, 60], [42, 60]],
  6: [[19, 17], [41, 17], [19, 43], [41, 43], [19, 63], [41, 63]],
  7: [[14, 14], [30, 22], [46, 30], [19, 50], [41, 50], [19, 66], [41, 66]],
  8: [[19, 15], [41, 15], [19, 32], [41, 32], [19, 49], [41, 49], [19, 66], [41, 66]],
  9: [[15, 18], [30, 18], [45, 18], [15, 40], [30, 40], [45, 40], [15, 62], [30, 62], [45, 62]],
};
const DOT_COLORS = [BLUE, GREEN, RED];

const STICKS = {
  2: [[30, 24], [30, 56]],
  3: [[30, 24], [19, 56], [41, 56]],
  4: [[19, 24], [41, 24], [19, 56], [41, 56]],
  5: [[17, 24], [43, 24], [30, 40], [17, 56], [43, 56]],
  6: [[15, 24], [30, 24], [45, 24], [15, 56], [30, 56], [45, 56]],
  7: [[30, 15], [15, 40], [30, 40], [45, 40], [15, 64], [30, 64], [45, 64]],
  8: [[12, 24], [24, 24], [36, 24], [48, 24], [12, 56], [24, 56], [36, 56], [48, 56]],
  9: [[15, 16], [30, 16], [45, 16], [15, 40], [30, 40], [45, 40], [15, 64], [30, 64], [45, 64]],
};

function text(x, y, size, color, str, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${color}" font-weight="${weight}" ` +
    `text-anchor="middle" dominant-baseline="central" font-family="'Noto Sans CJK SC','WenQuanYi Micro Hei','PingFang SC','Microsoft YaHei',sans-serif">${str}</text>`;
}

function dots(n) {
  const r = n === 1 ? 15 : n >= 7 ? 6.6 : 8;
  return DOTS[n].map(([x, y], i) => {
    let color = DOT_COLORS[i % 3];
    if (n === 1) color = RED;
    else if (n === 2 || n === 4 || n === 8) color = i < n / 2 ? BLUE : GREEN;
    else if (n === 6) color = i < 2 ? GREEN : RED;
    else if (n === 7) color = i < 3 ? GREEN : RED;
    else if (n === 9) color = [BLUE, RED, GREEN][Math.floor(i / 3)];
    else if (n === 5) color = i === 2 ? RED : (i % 2 ? GREEN : BLUE);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>` +
      `<circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="none" stroke="#fff" stroke-width="1.6"/>` +
      `<circle cx="${x}" cy="${y}" r="${r * 0.18}" fill="#fff"/>`;
  }).join("");
}

function sticks(n) {
  if (n === 1) {  // a stylised bird-like single stick, as on real tiles
    return `<ellipse cx="30" cy="46" rx="11" ry="17" fill="${GREEN}"/>` +
      `<circle cx="30" cy="24" r="8" fill="${RED}"/>` +
      `<path d="M22 60 L14 72 M38 60 L46 72" stroke="${GREEN}" stroke-width="4" stroke-linecap="round"/>` +
      `<circle cx="32" cy="22" r="1.8" fill="#fff"/>`;
  }
  const w = n === 8 ? 6 : 7, h = n >= 7 && n !== 8 ? 16 : 22;
  return STICKS[n].map(([x, y], i) => {
    let color = GREEN;
    if ((n === 5 && i === 2) || (n === 7 && i === 0) || (n === 9 && i % 3 === 1)) color = RED;
    return `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="3" fill="${color}"/>` +
      `<line x1="${x - w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y}" stroke="#fff" stroke-width="1.4"/>`;
  }).join("");
}

function corner(str) {
  return `<text x="7" y="11" font-size="10" fill="#8a7f66" font-family="sans-serif" font-weight="700">${str}</text>`;
}

function face(code) {
  if (code === "back") {
    return `<rect x="6" y="6" width="48" height="68" rx="6" fill="#2f6f9f"/>` +
      `<rect x="11" y="11" width="38" height="58" rx="4" fill="none" stroke="#9cc3e0" stroke-width="2"/>`;
  }
  const n = +code[0];
  if (/^[1-9]m$/.test(code)) {
    return text(30, 27, 27, INK, NUMERAL(n)) + text(30, 58, 28, RED, "万") + corner(n);
  }
  if (/^[1-9]p$/.test(code)) return dots(n);
  if (/^[1-9]s$/.test(code)) return sticks(n);
  if (/^[1-8]f$/.test(code)) {
    const color = n <= 4 ? ["#c2185b", "#6a1b9a", "#e08a00", GREEN][n - 1] : [GREEN, RED, "#e08a00", BLUE][n - 5];
    return text(30, 40, 34, color, FACE(code)) + text(48, 68, 12, INK, n <= 4 ? n : n - 4) + corner(n <= 4 ? "花" : "季");
  }
  if (code === "C") return text(30, 41, 40, RED, "中") + corner("C");
  if (code === "F") return text(30, 41, 40, GREEN, "发") + corner("F");
  if (code === "P") {
    return `<rect x="13" y="15" width="34" height="50" rx="3" fill="none" stroke="${BLUE}" stroke-width="4"/>` +
      `<rect x="19" y="21" width="22" height="38" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.5"/>` + corner("P");
  }
  return text(30, 41, 38, INK, FACE(code)) + corner(code);
}

/** The SVG markup of one tile picture; `side` lays it on its side (a claimed tile). */
export function svg(code, side = false) {
  const known = BY_CODE.has(code);
  const body = code === "back"
    ? `<rect x="1" y="1" width="58" height="78" rx="8" fill="#1f4f74"/>`
    : `<rect x="1" y="1" width="58" height="78" rx="8" fill="#2f8f66"/>` +
      `<rect x="1" y="1" width="58" height="73" rx="8" fill="#fbf6e6" stroke="#d8ccaa" stroke-width="1.2"/>`;
  const inner = body + (known ? face(code) : text(30, 40, 20, RED, "?"));
  const box = side ? "0 0 80 60" : "0 0 60 80";
  const content = side ? `<g transform="translate(0 60) rotate(-90)">${inner}</g>` : inner;
  return `<svg class="tile-svg" viewBox="${box}" role="img" aria-label="${code}" xmlns="http://www.w3.org/2000/svg">` +
    content + `</svg>`;
}

