/**
 * How wide text is in a monospaced font: East Asian wide and full-width characters (汉字, かな,
 * 한글, full-width punctuation) take two columns, everything else one code point one column.
 * Table columns padded by this line up in Chinese as they do in English.
 */
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

export function displayWidth(s: string): number {
  let width = 0;
  for (const ch of s) width += WIDE.test(ch) ? 2 : 1;
  return width;
}
