/**
 * A small XML tree for Urho3D's resource files (materials, prefabs, scenes), parsed with
 * fast-xml-parser and written back by us.
 *
 * The tree keeps element order, attribute order, comments and unknown elements. Every parsed
 * document remembers its source: {@link writeXml} returns the original bytes while the tree still
 * serializes to what the source parsed to, so an unchanged file is written back byte for byte
 * whatever its layout; edited trees are written in the source's style (declaration, indent, line
 * ends, `<a />` or `<a/>`).
 */
import { FormatError } from '@gltf-legacy/core';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** An element: name, attributes in file order, children. */
export interface XmlElement {
  name: string;
  attributes: [string, string][];
  children: XmlNode[];
}

/** A child of an element: an element, a text run or a comment. */
export type XmlNode = XmlElement | { text: string } | { comment: string };

/** How a file is laid out, so edited trees are written the way the game's files are. */
export interface XmlStyle {
  /** The raw `<?xml …?>` declaration, or null when the file has none. */
  declaration: string | null;
  /** One indentation step (`\t`, four spaces, …). */
  indent: string;
  /** Line end. */
  eol: string;
  /** The file ends with a line end. */
  finalNewline: boolean;
  /** Empty elements are written `<a />` (true) or `<a/>`. */
  selfCloseSpace: boolean;
  /** The file starts with a UTF-8 byte order mark. */
  bom: boolean;
}

/** A parsed XML file. */
export interface XmlDocument {
  root: XmlElement;
  style: XmlStyle;
  /** The bytes read and the serialization of the tree as read (set by {@link readXml}). */
  source?: { bytes: Uint8Array; canonical: string };
}

/** Options of {@link readXml}. */
export interface ReadXmlOptions {
  /** Largest file accepted (bytes). Default 64 MiB. */
  maxBytes?: number;
  /** Deepest element nesting accepted. Default 256. */
  maxDepth?: number;
}
export const READ_XML_DEFAULTS: Required<ReadXmlOptions> = { maxBytes: 64 * 1024 * 1024, maxDepth: 256 };

/** The default style of files we create (Urho3D's own writer: tab indent, `<a />`). */
export const DEFAULT_XML_STYLE: XmlStyle = {
  declaration: '<?xml version="1.0"?>',
  indent: '\t',
  eol: '\n',
  finalNewline: true,
  selfCloseSpace: true,
  bom: false,
};

/** True when a node is an element. */
export function isElement(n: XmlNode): n is XmlElement {
  return (n as XmlElement).name !== undefined;
}

/** The value of an attribute (first match, case-sensitive), or undefined. */
export function attr(e: XmlElement, name: string): string | undefined {
  for (const [k, v] of e.attributes) if (k === name) return v;
  return undefined;
}

/** Sets (or adds, at the end) an attribute. */
export function setAttr(e: XmlElement, name: string, value: string): void {
  for (const a of e.attributes)
    if (a[0] === name) {
      a[1] = value;
      return;
    }
  e.attributes.push([name, value]);
}

/** The element children of `e`, optionally only those named `name` (case-insensitive). */
export function elements(e: XmlElement, name?: string): XmlElement[] {
  const lower = name?.toLowerCase();
  return e.children.filter(
    (c): c is XmlElement => isElement(c) && (lower === undefined || c.name.toLowerCase() === lower),
  );
}

/** A new element. */
export function element(
  name: string,
  attributes: [string, string][] = [],
  children: XmlNode[] = [],
): XmlElement {
  return { name, attributes, children };
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  commentPropName: '#comment',
  allowBooleanAttributes: true,
  processEntities: true,
  htmlEntities: false,
});

/**
 * Parses an XML file. Throws FormatError `BAD_XML` (malformed, DOCTYPE, no root element),
 * `TOO_LARGE` (bytes) or `TOO_DEEP` (nesting).
 *
 * ```ts
 * const xml = readXml(bytes, 'Materials/Stone.xml');
 * xml.root.name; // 'material'
 * ```
 */
export function readXml(bytes: Uint8Array, file?: string, options: ReadXmlOptions = {}): XmlDocument {
  const { maxBytes, maxDepth } = { ...READ_XML_DEFAULTS, ...options };
  if (bytes.length > maxBytes)
    throw new FormatError(`XML file of ${bytes.length} bytes is above the ${maxBytes}-byte limit`, {
      code: 'TOO_LARGE',
      file,
    });
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    throw new FormatError('XML file is not valid UTF-8', { code: 'BAD_XML', file });
  }
  if (/<!DOCTYPE/i.test(text))
    throw new FormatError('XML with a DOCTYPE (entity declarations) is not read', { code: 'BAD_XML', file });
  // Depth before parsing: the parser recurses per level.
  let depth = 0;
  let deepest = 0;
  for (const m of text.matchAll(/<(\/?)[A-Za-z_][^>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else if (!m[2]) deepest = Math.max(deepest, ++depth);
    if (deepest > maxDepth)
      throw new FormatError(`XML nesting deeper than ${maxDepth} levels`, { code: 'TOO_DEEP', file });
  }
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true)
    throw new FormatError(`malformed XML: ${valid.err.msg} (line ${valid.err.line})`, {
      code: 'BAD_XML',
      file,
    });
  let raw: any[];
  try {
    raw = parser.parse(text);
  } catch (e) {
    throw new FormatError(`malformed XML: ${(e as Error).message}`, { code: 'BAD_XML', file });
  }
  const top = raw.map(toNode).filter((n): n is XmlElement => isElement(n) && !n.name.startsWith('?'));
  if (top.length !== 1)
    throw new FormatError('XML file has no single root element', { code: 'BAD_XML', file });
  const style = detectStyle(text, bom);
  const doc: XmlDocument = { root: top[0], style };
  doc.source = { bytes, canonical: serializeXml(doc) };
  return doc;
}

function toNode(raw: any): XmlNode {
  const keys = Object.keys(raw).filter((k) => k !== ':@');
  const name = keys[0];
  if (name === '#text') return { text: String(raw['#text']) };
  if (name === '#comment') {
    const inner = raw['#comment'] as any[];
    return { comment: inner.map((t) => String(t['#text'] ?? '')).join('') };
  }
  const attrs = raw[':@'] ? Object.entries(raw[':@'] as Record<string, unknown>) : [];
  return {
    name,
    attributes: attrs.map(([k, v]) => [k, v === true ? '' : String(v)]),
    children: ((raw[name] as any[]) ?? []).map(toNode),
  };
}

function detectStyle(text: string, bom: boolean): XmlStyle {
  const decl = /^\s*(<\?xml[^?]*\?>)/.exec(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const ind = /\n([ \t]+)</.exec(text);
  const empty = /<[A-Za-z_][^>]*?(\s?)\/>/.exec(text);
  return {
    declaration: decl ? decl[1] : null,
    indent: ind ? ind[1] : '\t',
    eol,
    finalNewline: /\n\s*$/.test(text),
    selfCloseSpace: empty ? empty[1] === ' ' : true,
    bom,
  };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Serializes a tree in its style (no check against the source: see {@link writeXml}). */
export function serializeXml(doc: XmlDocument): string {
  const { style } = doc;
  const lines: string[] = [];
  if (style.declaration) lines.push(style.declaration);
  const write = (e: XmlElement, depth: number) => {
    const pad = style.indent.repeat(depth);
    const attrs = e.attributes.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
    if (!e.children.length) {
      lines.push(`${pad}<${e.name}${attrs}${style.selfCloseSpace ? ' ' : ''}/>`);
      return;
    }
    if (e.children.every((c) => 'text' in c)) {
      const t = e.children.map((c) => escapeText((c as { text: string }).text)).join('');
      lines.push(`${pad}<${e.name}${attrs}>${t}</${e.name}>`);
      return;
    }
    lines.push(`${pad}<${e.name}${attrs}>`);
    for (const c of e.children) {
      if (isElement(c)) write(c, depth + 1);
      else if ('comment' in c) lines.push(`${pad}${style.indent}<!--${c.comment}-->`);
      else lines.push(`${pad}${style.indent}${escapeText(c.text)}`);
    }
    lines.push(`${pad}</${e.name}>`);
  };
  write(doc.root, 0);
  return (style.bom ? '\ufeff' : '') + lines.join(style.eol) + (style.finalNewline ? style.eol : '');
}

/**
 * Writes a tree: the source bytes when the tree is unchanged since {@link readXml}, else its
 * serialization in the source's style.
 *
 * ```ts
 * const xml = readXml(bytes);
 * writeXml(xml); // === bytes (unchanged)
 * ```
 */
export function writeXml(doc: XmlDocument): Uint8Array {
  const text = serializeXml(doc);
  if (doc.source && text === doc.source.canonical) return doc.source.bytes;
  if (doc.source) {
    const patched = patchAttributeValues(doc);
    if (patched !== null) return patched;
  }
  return new TextEncoder().encode(text);
}

/** The start tags of a source text in document order, with the span of each attribute value. */
function startTags(text: string): { name: string; values: { start: number; end: number; name: string }[] }[] {
  const out: { name: string; values: { start: number; end: number; name: string }[] }[] = [];
  const tag =
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][\s\S]*?>|<\/[^>]*>|<([A-Za-z_][^\s/>]*)([^>]*)>/g;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    if (!m[1]) continue;
    const values: { start: number; end: number; name: string }[] = [];
    const base = m.index + 1 + m[1].length;
    const attrRe = /([^\s=/]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
    for (let a = attrRe.exec(m[2]); a; a = attrRe.exec(m[2])) {
      const start = base + a.index + a[0].length - a[2].length + 1;
      values.push({ start, end: start + a[2].length - 2, name: a[1] });
    }
    out.push({ name: m[1], values });
  }
  return out;
}

/**
 * When the tree differs from its source only in attribute values (same elements, attribute names
 * and order, texts and comments), the source text with just those values replaced — every other
 * byte (indentation, line ends, quotes) stays. Null when the structure changed.
 */
function patchAttributeValues(doc: XmlDocument): Uint8Array | null {
  const src = doc.source!;
  let before: XmlDocument;
  try {
    before = readXml(src.bytes);
  } catch {
    return null;
  }
  const edits: { index: number; attr: number; value: string; name: string; count: number }[] = [];
  let index = 0;
  const same = (a: XmlNode, b: XmlNode): boolean => {
    if (isElement(a) !== isElement(b)) return false;
    if (!isElement(a) || !isElement(b)) return JSON.stringify(a) === JSON.stringify(b);
    if (a.name !== b.name || a.attributes.length !== b.attributes.length) return false;
    if (a.children.length !== b.children.length) return false;
    const my = index++;
    for (let i = 0; i < a.attributes.length; i++) {
      if (a.attributes[i][0] !== b.attributes[i][0]) return false;
      if (a.attributes[i][1] !== b.attributes[i][1])
        edits.push({
          index: my,
          attr: i,
          value: b.attributes[i][1],
          name: a.name,
          count: a.attributes.length,
        });
    }
    return a.children.every((c, i) => same(c, b.children[i]));
  };
  if (!same(before.root, doc.root)) return null;
  const bom = before.style.bom ? 1 : 0;
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(src.bytes).slice(bom);
  const tags = startTags(text);
  // element i of the tree is start tag i of the text (both in document order)
  const root = tags.findIndex((t) => t.name === before.root.name);
  if (root < 0) return null;
  const spans: { start: number; end: number; value: string }[] = [];
  for (const e of edits) {
    const t = tags[root + e.index];
    const v = t?.values[e.attr];
    if (!v || t.name !== e.name || t.values.length !== e.count) return null; // a tag we misread
    spans.push({ start: v.start, end: v.end, value: escapeAttr(e.value) });
  }
  spans.sort((a, b) => b.start - a.start);
  let out = text;
  for (const sp of spans) out = out.slice(0, sp.start) + sp.value + out.slice(sp.end);
  return new TextEncoder().encode((bom ? '\ufeff' : '') + out);
}

/** A deep copy of a tree (the source is kept, so an unchanged copy still writes the source bytes). */
export function cloneXml(doc: XmlDocument): XmlDocument {
  return structuredClone(doc);
}
