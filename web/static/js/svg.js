// Making SVG elements: the board and the evaluation graph draw with it.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with its attributes, appended to `parent` when one is given.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string|number>} attrs
 * @param {Element} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
export function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}
