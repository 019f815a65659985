// Every text the page shows comes from a message catalogue (`/i18n/<lang>.js`), one language
// loaded at a time: the one chosen with the switcher (remembered), else the first of the
// browser's preferences that we have, else English. A key missing from a catalogue shows the
// English text, and a test fails on it.

/** @typedef {'en'|'zh-Hans'|'zh-Hant'|'vi'} Lang */

/** The languages, each named in itself. @type {Record<Lang, string>} */
export const LANGS = { en: 'English', 'zh-Hans': '简体中文', 'zh-Hant': '繁體中文', vi: 'Tiếng Việt' };

const KEY = 'cannonade_lang';

/** @type {Record<string, string>} */
let messages = {};
/** @type {Record<string, string>} */
let english = {};
/** @type {Lang} */
let current = 'en';

/**
 * The language for a list of browser preferences (`navigator.languages`): Chinese by script
 * or region (Taiwan, Hong Kong and Macau write traditional characters).
 * @param {readonly string[]} prefs
 * @returns {Lang}
 */
export function pickLang(prefs) {
  for (const p of prefs) {
    const l = p.toLowerCase();
    if (l.startsWith('zh')) return /hant|-tw|-hk|-mo/.test(l) ? 'zh-Hant' : 'zh-Hans';
    if (l.startsWith('vi')) return 'vi';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

/** @returns {Lang} the remembered choice, or the browser's preference */
export function chosenLang() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGS) return /** @type {Lang} */ (saved);
  return pickLang(navigator.languages ?? [navigator.language ?? 'en']);
}

/**
 * Loads a catalogue (and English, for keys a translation lacks).
 * @param {Lang} [lang]
 * @param {string} [part] `''` for the page, `rules` for the rules pages
 */
export async function loadLang(lang = chosenLang(), part = '') {
  const name = part ? `${part}-` : '';
  const load = async (/** @type {Lang} */ l) => (await import(`/i18n/${name}${l}.js`)).default;
  const [m, en] = await Promise.all([load(lang), lang === 'en' ? null : load('en')]);
  messages = { ...messages, ...m };
  english = { ...english, ...(en ?? m) };
  current = lang;
  document.documentElement.lang = lang;
}

/** @returns {Lang} */
export function lang() {
  return current;
}

/** Remembers a choice and reloads the page in it. @param {Lang} l */
export function setLang(l) {
  localStorage.setItem(KEY, l);
  location.reload();
}

/**
 * A message with its `{name}` parameters filled in.
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 */
export function t(key, params = {}) {
  const text = messages[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/** Whether the catalogue has a key (optional messages, such as a piece's per-colour name). */
/** @param {string} key */
export function has(key) {
  return key in messages;
}

/**
 * A piece's name: its colour's own name where the language has one (帥 for Red's general),
 * else the kind's name.
 * @param {string} symbol
 * @param {string} colour
 */
export function pieceName(symbol, colour) {
  return has(`piece.${symbol}@${colour}`) ? t(`piece.${symbol}@${colour}`) : t(`piece.${symbol}`);
}

/** Fills `[data-i18n]` elements (the page shell and the rules pages) from the catalogue. */
/** @param {ParentNode} root */
export function translateDom(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.getAttribute('data-i18n') ?? '');
  // Rules pages: trusted HTML from our own catalogue (paragraphs with <b> and tables).
  for (const e of root.querySelectorAll('[data-i18n-html]')) e.innerHTML = t(e.getAttribute('data-i18n-html') ?? '');
}
