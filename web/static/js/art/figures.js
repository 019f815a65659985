// Piece pictures drawn for Cannonade (our own work, see web/ASSETS.md): simple silhouettes in
// a 100-unit box centred on (0, 0), y down. Each picture is a list of parts: `i` is filled
// with the side's ink, `f` with the piece's face (holes and highlights), `l` is an ink
// stroke. Pictures are keyed by the geometry's piece symbols (`cmd.tank`, `cb.gun`, `cn.horse`
// for the international Xiangqi/Banqi set), so a game's legend picks them without any table
// of letters here.

/** @typedef {['i'|'f'|'l', string, string?]} Part a kind, a path and an optional transform */

/** @param {number} x @param {number} y @param {number} w @param {number} h @param {number} [r] */
function rect(x, y, w, h, r = 0) {
  if (!r) return `M${x} ${y}h${w}v${h}h${-w}Z`;
  return `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}h${-(w - 2 * r)}a${r} ${r} 0 0 1 ${-r} ${-r}v${-(h - 2 * r)}a${r} ${r} 0 0 1 ${r} ${-r}Z`;
}

/** @param {number} cx @param {number} cy @param {number} r */
function circle(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

/** @param {...number} xy */
function poly(...xy) {
  let d = '';
  for (let i = 0; i < xy.length; i += 2) d += `${i ? 'L' : 'M'}${xy[i]} ${xy[i + 1]}`;
  return d + 'Z';
}

/** A five-pointed star. @param {number} cx @param {number} cy @param {number} r */
export function star(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(+(cx + rr * Math.cos(a)).toFixed(1), +(cy + rr * Math.sin(a)).toFixed(1));
  }
  return poly(...pts);
}

/** @type {Part[]} */
const TANK = [
  ['i', rect(-42, 6, 84, 22, 11)],
  ['f', circle(-29, 17, 5) + circle(-14, 17, 5) + circle(1, 17, 5) + circle(16, 17, 5) + circle(30, 17, 5)],
  ['i', poly(-36, 6, -28, -6, 30, -6, 38, 6)],
  ['i', rect(-18, -22, 32, 18, 7)],
  ['i', rect(10, -17, 36, 7, 2)],
];

/** @type {Part[]} */
const FIELD_GUN = [
  ['i', poly(-8, 10, -44, 30, -40, 37, -2, 16)],
  ['i', poly(-16, -2, 38, -32, 43, -24, -10, 8)],
  ['i', circle(-4, 16, 17)],
  ['f', circle(-4, 16, 11)],
  ['i', circle(-4, 16, 4)],
  ['l', 'M-4 5V27M-15 16H7'],
];

/** @type {Part[]} */
const PLANE = [
  ['i', 'M0-46C5-46 6-38 6-30V-10L46 8V18L6 10V26L18 36V44L0 39L-18 44V36L-6 26V10L-46 18V8L-6-10V-30C-6-38-5-46 0-46Z'],
];

/** @type {Part[]} */
const BOMBER = [
  ...PLANE,
  ['i', rect(-32, -4, 8, 16, 3) + rect(24, -4, 8, 16, 3) + rect(-20, -8, 8, 14, 3) + rect(12, -8, 8, 14, 3)],
];

/** @type {Part[]} */
const FLAG = [
  ['i', rect(-32, -44, 7, 86, 3)],
  ['i', 'M-25-42Q5-54 38-40V-4Q5-18-25-6Z'],
  ['i', rect(-44, 36, 32, 8, 3)],
];

/** @type {Part[]} */
const HELMET = [
  ['i', 'M-34 8A34 34 0 0 1 34 8Z'],
  ['i', rect(-44, 4, 88, 10, 5)],
  ['f', rect(-30, -6, 60, 5, 2)],
  ['l', 'M-24 14Q0 40 24 14'],
];

/** @type {Part[]} */
const CONICAL_HAT = [
  ['i', 'M-46 12Q0-50 46 12Q0 22-46 12Z'],
  ['f', 'M-28 2Q0-20 28 2'],
  ['l', 'M-20 16Q0 42 20 16'],
];

/** @type {Part[]} */
const ENGINEER = [
  // A shovel and a pick, crossed.
  ['i', rect(-3, -10, 6, 48) + rect(-10, 36, 20, 7, 3) + 'M-14-12H14V-32Q0-52-14-32Z', 'rotate(38)'],
  ['i', rect(-3, -32, 6, 74) + 'M-36-30Q0-48 36-30L32-24Q0-38-32-24Z', 'rotate(-38)'],
];

/** @type {Part[]} */
const SHIP = [
  ['i', poly(-48, 6, 48, 6, 36, 26, -40, 26)],
  ['i', rect(-22, -8, 36, 16, 2)],
  ['i', rect(-12, -22, 16, 16, 2)],
  ['i', rect(-6, -42, 5, 22)],
  ['i', rect(18, -2, 12, 9, 2) + rect(26, 0, 18, 4)],
  ['f', rect(-18, -3, 6, 5) + rect(-8, -3, 6, 5) + rect(2, -3, 6, 5)],
];

/** @type {Part[]} */
const ANTI_AIR = [
  ['i', poly(-36, 32, 36, 32, 28, 16, -28, 16)],
  ['i', 'M-16 16A16 16 0 0 1 16 16Z'],
  ['i', poly(-8, 8, 12, -44, 19, -41, 0, 11)],
  ['i', poly(2, 10, 26, -38, 33, -34, 9, 14)],
];

/** @type {Part[]} */
const MISSILE = [
  ['i', rect(-8, -28, 16, 56, 3) + poly(-8, -28, 0, -48, 8, -28) + poly(-8, 12, -20, 34, -8, 28) + poly(8, 12, 20, 34, 8, 28), 'rotate(35)'],
  ['f', rect(-4, -16, 8, 4), 'rotate(35)'],
];

/** @type {Part[]} */
const MACHINE_GUN = [
  ['i', rect(-42, -22, 24, 16, 3) + rect(-20, -20, 30, 12, 4) + rect(8, -16, 38, 5)],
  ['l', 'M-12-8L-32 36M-12-8L10 36M-12-8V36'],
];

/** @type {Part[]} */
const HORSE = [
  ['i', 'M-24 42H30Q36 6 26-20L20-46L10-33Q-6-36-22-18L-38-2Q-40 10-28 9L-12 3Q-6 16-24 30Z'],
  ['f', circle(2, -20, 3.5)],
];

/** @type {Part[]} */
const COMMANDER = [
  ['i', star(0, 2, 44)],
  ['f', star(0, 2, 16)],
];

/** Pictures by piece symbol. @type {Record<string, Part[]>} */
export const FIGURES = {
  // Commander Chess: the pieces players know from the wooden set, as silhouettes.
  'cmd.commander': COMMANDER,
  'cmd.infantry': HELMET,
  'cmd.militia': CONICAL_HAT,
  'cmd.engineer': ENGINEER,
  'cmd.tank': TANK,
  'cmd.artillery': FIELD_GUN,
  'cmd.anti_air_gun': ANTI_AIR,
  'cmd.missile': MISSILE,
  'cmd.air_force': PLANE,
  'cmd.navy': SHIP,
  'cmd.headquarters': FLAG,
  // Chess-Battle.
  'cb.headquarter': FLAG,
  'cb.bomber': BOMBER,
  'cb.tank': TANK,
  'cb.gun': FIELD_GUN,
  'cb.machine_gun': MACHINE_GUN,
  'cb.cavalry': HORSE,
  'cb.soldier': HELMET,
  // Xiangqi and Banqi, the international set: a picture of what each piece is.
  'cn.general': [
    ['i', 'M-36 22L-42-20L-20 0L0-34L20 0L42-20L36 22Z'],
    ['i', rect(-38, 27, 76, 11, 4)],
    ['i', circle(0, -38, 6) + circle(-42, -24, 5) + circle(42, -24, 5)],
  ],
  'cn.advisor': [
    ['i', 'M0-44L14-14L44 0L14 14L0 44L-14 14L-44 0L-14-14Z'],
    ['f', circle(0, 0, 9)],
  ],
  'cn.elephant': [
    ['i', 'M-44-18Q-44-38-24-34Q-14-40 0-40Q14-40 24-34Q44-38 44-18Q44 4 24 6Q18 10 12 10Q10 22 14 32Q18 40 10 44Q0 44 0 34V14Q-8 10-12 10Q-18 10-24 6Q-44 4-44-18Z'],
    ['f', circle(-10, -16, 4) + circle(10, -16, 4)],
    ['f', 'M-12 10Q-16 22-26 24Q-16 16-16 10Z'],
  ],
  'cn.horse': HORSE,
  'cn.chariot': [
    ['i', circle(0, 0, 42)],
    ['f', circle(0, 0, 32)],
    ['i', circle(0, 0, 9)],
    ['l', 'M0-34V34M-34 0H34M-24-24L24 24M24-24L-24 24'],
  ],
  'cn.cannon': FIELD_GUN,
  'cn.soldier': [
    ['i', circle(0, -24, 15)],
    ['i', poly(-12, -8, 12, -8, 22, 28, -22, 28)],
    ['i', rect(-32, 28, 64, 12, 5)],
  ],
};

/** Xiangqi's and Banqi's pieces in traditional characters: the first colour's, the second's. */
/** @type {Record<string, [string, string]>} */
export const CHARACTERS = {
  'cn.general': ['帥', '將'],
  'cn.advisor': ['仕', '士'],
  'cn.elephant': ['相', '象'],
  'cn.horse': ['傌', '馬'],
  'cn.chariot': ['俥', '車'],
  'cn.cannon': ['炮', '砲'],
  'cn.soldier': ['兵', '卒'],
};
