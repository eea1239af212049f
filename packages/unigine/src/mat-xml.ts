/**
 * A small lossless XML layer for UNIGINE `.mat` material libraries.
 *
 * Why not fast-xml-parser: a library must come back byte for byte (comments, tabs, attribute
 * quoting, self-closing tags, CRLF), and the engine's own base library
 * `core/materials/default/unigine_mesh.mat` is not well-formed XML (`unit="13"pass="ambient"`: no
 * space between two attributes), which a conforming parser rejects or silently rewrites. This
 * reader is tolerant where the engine was, keeps the exact source text of every element, and the
 * writer re-emits that text for every element that was not changed since it was read.
 *
 * Hostile input: only the five predefined entities and numeric character references are decoded
 * (no DTD, so no entity expansion); nesting depth and element count are bounded; every error is a
 * `FormatError` naming the file, the byte offset (UTF-16 index into the text) and the element.
 */
import { FormatError } from '@gltf-legacy/core';

/** One attribute, in file order. */
export interface MatAttribute {
  name: string;
  value: string;
}

/** An element of a `.mat` file: `<tag attr="…">text</tag>` or `<tag …>children</tag>`. */
export interface MatElement {
  tag: string;
  attributes: MatAttribute[];
  /** Text content (entities decoded) of an element without child elements; `undefined` when empty. */
  text?: string;
  /** Child elements in file order (comments and whitespace live in {@link MatElement.source}). */
  children: MatElement[];
  /** How the element was written, set by the reader; the writer reuses it while the element is unchanged. */
  source?: MatElementSource;
}

/** The formatting of an element as read (and a snapshot of its content to detect edits). */
export interface MatElementSource {
  /** Exact text of the whole element. */
  raw: string;
  /** Exact text of the start tag (the whole tag when self-closing). */
  openTag: string;
  /** Exact text of the end tag (`''` when self-closing). */
  closeTag: string;
  /** Text (whitespace, comments) between the previous sibling (or the parent's start tag) and this element. */
  leading: string;
  /** Text between the last child element and the end tag. */
  trailing: string;
  /** Raw text content (entities not decoded) of an element without children. */
  textRaw: string;
  /** Snapshot at read time. */
  tag: string;
  attributes: MatAttribute[];
  text?: string;
  children: MatElement[];
}

/** A parsed XML file: the text before the root element, the root, the text after it. */
export interface MatXmlDocument {
  prolog: string;
  root: MatElement;
  epilog: string;
}

/** Limits of {@link parseMatXml}. */
export interface MatXmlLimits {
  /** Deepest element nesting accepted. */
  maxDepth: number;
  /** Most elements accepted in one file. */
  maxElements: number;
}

export const MAT_XML_LIMITS: MatXmlLimits = { maxDepth: 32, maxElements: 200_000 };

const NAME_END = /[\s=/>"'<]/;

function decodeEntities(raw: string, file: string, offset: number): string {
  if (!raw.includes('&') && !raw.includes('<![CDATA[')) return raw;
  let out = '';
  let i = 0;
  while (i < raw.length) {
    if (raw.startsWith('<![CDATA[', i)) {
      const end = raw.indexOf(']]>', i + 9);
      if (end < 0)
        throw new FormatError('unterminated CDATA section', { code: 'BAD_XML', file, offset: offset + i });
      out += raw.slice(i + 9, end);
      i = end + 3;
      continue;
    }
    const c = raw[i];
    if (c !== '&') {
      out += c;
      i++;
      continue;
    }
    const semi = raw.indexOf(';', i);
    const ent = semi > i && semi - i <= 12 ? raw.slice(i + 1, semi) : '';
    let rep: string | undefined;
    if (ent === 'lt') rep = '<';
    else if (ent === 'gt') rep = '>';
    else if (ent === 'amp') rep = '&';
    else if (ent === 'quot') rep = '"';
    else if (ent === 'apos') rep = "'";
    else if (/^#[0-9]{1,7}$/.test(ent) || /^#x[0-9a-f]{1,6}$/i.test(ent)) {
      const code =
        ent[1] === 'x' || ent[1] === 'X' ? Number.parseInt(ent.slice(2), 16) : Number(ent.slice(1));
      if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff))
        rep = String.fromCodePoint(code);
    }
    if (rep === undefined) {
      out += c; // unknown entity: kept as written (no DTD, nothing to expand)
      i++;
    } else {
      out += rep;
      i = semi + 1;
    }
  }
  return out;
}

/** Escapes text content for writing. */
export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value for writing between double quotes. */
export function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/**
 * Parses XML text into a lossless tree (see the module comment). Throws `FormatError` code
 * `BAD_XML` (or `XML_TOO_DEEP`, `XML_TOO_LARGE`).
 *
 * ```ts
 * const { root } = parseMatXml('<materials version="1.11"><material name="a"/></materials>', 'a.mat');
 * root.children[0].attributes; // [{ name: 'name', value: 'a' }]
 * ```
 */
export function parseMatXml(
  text: string,
  file: string,
  limits: MatXmlLimits = MAT_XML_LIMITS,
): MatXmlDocument {
  let pos = 0;
  let elements = 0;
  const fail = (detail: string, at: number, code = 'BAD_XML', field?: string): never => {
    throw new FormatError(detail, { code, file, offset: at, field });
  };

  /** Skips comments, processing instructions, doctype and text; returns the index of the next `<tag` or `</`. */
  const skipMisc = (allowText: boolean): void => {
    while (pos < text.length) {
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end < 0) fail('unterminated comment', pos);
        pos = end + 3;
      } else if (text.startsWith('<?', pos)) {
        const end = text.indexOf('?>', pos + 2);
        if (end < 0) fail('unterminated processing instruction', pos);
        pos = end + 2;
      } else if (text.startsWith('<!DOCTYPE', pos) || text.startsWith('<!doctype', pos)) {
        // Kept as text, never interpreted (no entity definitions are expanded).
        let depth = 0;
        let i = pos + 9;
        for (; i < text.length; i++) {
          if (text[i] === '[') depth++;
          else if (text[i] === ']') depth--;
          else if (text[i] === '>' && depth <= 0) break;
        }
        if (i >= text.length) fail('unterminated DOCTYPE', pos);
        pos = i + 1;
      } else if (text.startsWith('<![CDATA[', pos)) {
        if (!allowText) fail('CDATA outside the root element', pos);
        const end = text.indexOf(']]>', pos + 9);
        if (end < 0) fail('unterminated CDATA section', pos);
        pos = end + 3;
      } else if (text[pos] === '<') {
        return;
      } else {
        const next = text.indexOf('<', pos);
        const end = next < 0 ? text.length : next;
        if (!allowText && text.slice(pos, end).trim()) fail('text outside the root element', pos);
        pos = end;
      }
    }
  };

  const parseElement = (depth: number, leading: string): MatElement => {
    const start = pos;
    if (depth > limits.maxDepth)
      fail(`elements nested deeper than ${limits.maxDepth}`, start, 'XML_TOO_DEEP');
    if (++elements > limits.maxElements)
      fail(`more than ${limits.maxElements} elements`, start, 'XML_TOO_LARGE');
    pos++; // '<'
    let i = pos;
    while (i < text.length && !NAME_END.test(text[i])) i++;
    const tag = text.slice(pos, i);
    if (!tag) fail('element without a name', start);
    pos = i;
    const attributes: MatAttribute[] = [];
    let selfClosing = false;
    for (;;) {
      while (pos < text.length && /\s/.test(text[pos])) pos++;
      if (pos >= text.length) fail(`unterminated start tag <${tag}>`, start);
      if (text[pos] === '>') {
        pos++;
        break;
      }
      if (text.startsWith('/>', pos)) {
        pos += 2;
        selfClosing = true;
        break;
      }
      let j = pos;
      while (j < text.length && !NAME_END.test(text[j])) j++;
      const name = text.slice(pos, j);
      if (!name) fail(`unexpected "${text[pos]}" in <${tag}>`, pos);
      pos = j;
      while (pos < text.length && /\s/.test(text[pos])) pos++;
      if (text[pos] !== '=') fail(`attribute ${name} of <${tag}> has no value`, pos);
      pos++;
      while (pos < text.length && /\s/.test(text[pos])) pos++;
      const q = text[pos];
      if (q !== '"' && q !== "'") fail(`attribute ${name} of <${tag}> is not quoted`, pos);
      const end = text.indexOf(q, pos + 1);
      if (end < 0) fail(`unterminated value of attribute ${name} of <${tag}>`, pos);
      const raw = text.slice(pos + 1, end);
      if (raw.includes('<')) fail(`"<" in attribute ${name} of <${tag}>`, pos);
      attributes.push({ name, value: decodeEntities(raw, file, pos + 1) });
      pos = end + 1;
    }
    const openTag = text.slice(start, pos);
    const children: MatElement[] = [];
    let textRaw = '';
    let trailing = '';
    let closeTag = '';
    let hasText = false;
    if (!selfClosing) {
      const contentStart = pos;
      let segStart = pos;
      for (;;) {
        skipMisc(true);
        if (pos >= text.length) fail(`<${tag}> is not closed`, start);
        if (text.startsWith('</', pos)) {
          const gt = text.indexOf('>', pos);
          if (gt < 0) fail(`unterminated end tag of <${tag}>`, pos);
          const closeName = text.slice(pos + 2, gt).trim();
          if (closeName !== tag) fail(`</${closeName}> closes <${tag}>`, pos);
          trailing = text.slice(segStart, pos);
          if (!children.length) {
            textRaw = text.slice(contentStart, pos);
            hasText = textRaw.length > 0;
          }
          closeTag = text.slice(pos, gt + 1);
          pos = gt + 1;
          break;
        }
        const lead = text.slice(segStart, pos);
        children.push(parseElement(depth + 1, lead));
        segStart = pos;
      }
    }
    const textValue = hasText ? decodeEntities(stripComments(textRaw), file, start) : undefined;
    const element: MatElement = { tag, attributes, children };
    if (textValue !== undefined) element.text = textValue;
    element.source = {
      raw: text.slice(start, pos),
      openTag,
      closeTag,
      leading,
      trailing: children.length ? trailing : '',
      textRaw,
      tag,
      attributes: attributes.map((a) => ({ ...a })),
      text: textValue,
      children: children.slice(),
    };
    return element;
  };

  skipMisc(false);
  if (pos >= text.length || text.startsWith('</', pos)) fail('no root element', pos);
  const prolog = text.slice(0, pos);
  const root = parseElement(0, '');
  const after = pos;
  skipMisc(false);
  if (pos < text.length) fail('more than one root element', pos);
  return { prolog, root, epilog: text.slice(after) };
}

function stripComments(raw: string): string {
  if (!raw.includes('<!--')) return raw;
  return raw.replace(/<!--[\s\S]*?-->/g, '');
}

function sameAttributes(a: readonly MatAttribute[], b: readonly MatAttribute[]): boolean {
  return a.length === b.length && a.every((x, i) => x.name === b[i].name && x.value === b[i].value);
}

/** True when the element (and everything below it) is as the reader left it. */
export function isUnchanged(e: MatElement): boolean {
  const s = e.source;
  if (!s) return false;
  if (e.tag !== s.tag || e.text !== s.text || !sameAttributes(e.attributes, s.attributes)) return false;
  if (e.children.length !== s.children.length) return false;
  return e.children.every((c, i) => c === s.children[i] && isUnchanged(c));
}

function openTagOf(e: MatElement, selfClose: boolean): string {
  const attrs = e.attributes.map((a) => ` ${a.name}="${escapeAttribute(a.value)}"`).join('');
  return `<${e.tag}${attrs}${selfClose ? '/>' : '>'}`;
}

/**
 * Writes an element: its source text while unchanged, else new text that keeps the formatting
 * of the parts that did not change (start tag, children, whitespace). New elements are indented
 * with tabs at `depth`.
 *
 * ```ts
 * writeMatElement({ tag: 'state', attributes: [{ name: 'name', value: 'workflow' }], text: '1', children: [] }, 2);
 * // '<state name="workflow">1</state>'
 * ```
 */
export function writeMatElement(e: MatElement, depth: number): string {
  const s = e.source;
  if (s && isUnchanged(e)) return s.raw;
  const attrsKept = s !== undefined && s.tag === e.tag && sameAttributes(e.attributes, s.attributes);
  const empty = !e.children.length && (e.text === undefined || e.text === '');
  if (empty && !s?.closeTag) return attrsKept ? (s as MatElementSource).openTag : openTagOf(e, true);
  const wasSelfClosing = s !== undefined && !s.closeTag;
  const open = attrsKept && !wasSelfClosing ? (s as MatElementSource).openTag : openTagOf(e, false);
  const close = s?.closeTag && s.tag === e.tag ? s.closeTag : `</${e.tag}>`;
  if (!e.children.length) {
    const body = s && e.text === s.text ? s.textRaw : escapeText(e.text ?? '');
    return `${open}${body}${close}`;
  }
  const indent = '\t'.repeat(depth + 1);
  const original = new Set(s?.children);
  let out = open;
  for (const c of e.children) {
    const lead = c.source && original.has(c) ? c.source.leading : `\n${indent}`;
    out += lead + writeMatElement(c, depth + 1);
  }
  const endLead = s?.children.length ? s.trailing : `\n${'\t'.repeat(depth)}`;
  return out + endLead + close;
}
