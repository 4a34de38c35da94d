/**
 * A text inside our quotation marks (an alert's title, a search's name): “…”, with the text's own
 * double quotes made single ones (‘…’), as nested quotes are written, so `"fed" cut` reads
 * “‘fed’ cut”, not “"fed" cut”. A text that is wholly quoted loses its own pair.
 */
export function quote(text: string): string {
  let s = text.trim();
  const pair = /^(["“”])(.*)(["“”])$/s.exec(s);
  if (pair && !/["“”]/.test(pair[2]!)) s = pair[2]!;
  s = s.replace(/["“]([^"“”]*)["”]/g, '‘$1’').replace(/["“”]/g, '’');
  return `“${s}”`;
}
