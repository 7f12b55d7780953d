import { describe, expect, it } from 'vitest';
import { charsetOf, decodeHtml } from './charset';

const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

// 日本語のテキスト in Shift_JIS.
const SJIS_JAPANESE = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x65, 0x83, 0x4c, 0x83, 0x58, 0x83, 0x67];

describe('charsetOf', () => {
  it('takes the Content-Type charset first', () => {
    expect(charsetOf('text/html; charset=ISO-8859-2', ascii('<meta charset="utf-8">'))).toBe('iso-8859-2');
  });

  it('accepts a quoted header charset and odd spacing', () => {
    expect(charsetOf('text/html;charset = "Shift_JIS"', ascii(''))).toBe('shift_jis');
  });

  it('falls back to <meta charset> when the header has none', () => {
    expect(charsetOf('text/html', ascii('<html><head><meta charset="windows-1252"></head>'))).toBe('windows-1252');
  });

  it('reads <meta http-equiv=Content-Type content="...; charset=...">', () => {
    const head = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">';
    expect(charsetOf(undefined, ascii(head))).toBe('shift_jis');
  });

  it('ignores a meta charset after the first 1024 bytes', () => {
    const bytes = ascii(`${' '.repeat(1_100)}<meta charset="windows-1252">`);
    expect(charsetOf(undefined, bytes)).toBe('utf-8');
  });

  it('falls back to utf-8 for an unknown header label', () => {
    expect(charsetOf('text/html; charset=klingon-42', ascii('<p>x</p>'))).toBe('utf-8');
  });

  it('skips an unknown header label in favour of a valid meta charset', () => {
    expect(charsetOf('text/html; charset=klingon-42', ascii('<meta charset="shift_jis">'))).toBe('shift_jis');
  });

  it('falls back to utf-8 for an unknown meta label and for no declaration', () => {
    expect(charsetOf(undefined, ascii('<meta charset="bogus-encoding">'))).toBe('utf-8');
    expect(charsetOf(undefined, ascii('<p>plain</p>'))).toBe('utf-8');
  });
});

describe('decodeHtml', () => {
  it('decodes windows-1252 smart quotes 0x93 0x94 from the header charset', () => {
    const bytes = new Uint8Array([0x93, ...Buffer.from('hi'), 0x94, 0x20, 0x80]);
    expect(decodeHtml('text/html; charset=windows-1252', bytes)).toEqual({ text: '\u201chi\u201d \u20ac', charset: 'windows-1252' });
  });

  it('decodes windows-1252 from a meta charset', () => {
    const bytes = new Uint8Array([...Buffer.from('<meta charset="windows-1252"><p>'), 0x93, 0x41, 0x94]);
    const { text, charset } = decodeHtml('text/html', bytes);
    expect(charset).toBe('windows-1252');
    expect(text.endsWith('<p>\u201cA\u201d')).toBe(true);
  });

  it('decodes Shift_JIS bytes to the right Japanese text (header)', () => {
    const { text } = decodeHtml('text/html; charset=Shift_JIS', new Uint8Array(SJIS_JAPANESE));
    expect(text).toBe('日本語のテキスト');
  });

  it('decodes Shift_JIS bytes to the right Japanese text (meta)', () => {
    const bytes = new Uint8Array([...Buffer.from('<meta charset="Shift_JIS"><title>'), ...SJIS_JAPANESE, ...Buffer.from('</title>')]);
    expect(decodeHtml(undefined, bytes).text).toBe('<meta charset="Shift_JIS"><title>日本語のテキスト</title>');
  });

  it('decodes utf-8 by default and turns malformed bytes into U+FFFD', () => {
    expect(decodeHtml(undefined, new Uint8Array(Buffer.from('héllo ✓', 'utf8'))).text).toBe('héllo ✓');
    expect(decodeHtml(undefined, new Uint8Array([0x61, 0xff, 0x62]))).toEqual({ text: 'a\ufffdb', charset: 'utf-8' });
  });

  it('an unknown label decodes as utf-8', () => {
    const { text, charset } = decodeHtml('text/html; charset=x-unknown-label', new Uint8Array(Buffer.from('ü', 'utf8')));
    expect(charset).toBe('utf-8');
    expect(text).toBe('ü');
  });
});

describe('labels no browser decodes (issue 9, defect 11)', () => {
  // "+AGE-" is UTF-7 for "a"; a UTF-7 decoder would turn "+ADw-script+AD4-" into "<script>".
  const utf7Attack = ascii('<p>+ADw-script+AD4-alert(1)+ADw-/script+AD4-</p>');

  it('never decodes UTF-7 declared by the header: the bytes are read as UTF-8', () => {
    expect(charsetOf('text/html; charset=utf-7', utf7Attack)).toBe('utf-8');
    expect(decodeHtml('text/html; charset=UTF-7', utf7Attack).text).toBe('<p>+ADw-script+AD4-alert(1)+ADw-/script+AD4-</p>');
  });

  it('never decodes UTF-7 or UTF-32 declared by meta; a later valid meta still counts', () => {
    expect(charsetOf(undefined, ascii('<meta charset="utf-7"><p>x</p>'))).toBe('utf-8');
    expect(charsetOf(undefined, ascii('<meta charset="UTF-32"><p>x</p>'))).toBe('utf-8');
    expect(charsetOf(undefined, ascii('<meta charset="utf-7"><meta charset="windows-1252">'))).toBe('windows-1252');
  });

  it('takes a UTF-16 meta declaration as UTF-8 (HTML Standard prescan), and x-user-defined as windows-1252', () => {
    expect(charsetOf(undefined, ascii('<meta charset="utf-16"><p>x</p>'))).toBe('utf-8');
    expect(charsetOf(undefined, ascii('<meta http-equiv="Content-Type" content="text/html; charset=UTF-16BE">'))).toBe('utf-8');
    expect(charsetOf(undefined, ascii('<meta charset="x-user-defined">'))).toBe('windows-1252');
  });

  it('maps labels as the Encoding Standard does (gb2312 is GBK, latin1 is windows-1252)', () => {
    expect(charsetOf('text/html; charset=gb2312', ascii(''))).toBe('gbk');
    expect(charsetOf('text/html; charset=latin1', ascii(''))).toBe('windows-1252');
  });

  it('a byte order mark wins over every declaration, and is not part of the text', () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from('<p>hé</p>', 'utf16le')]);
    expect(decodeHtml('text/html; charset=windows-1252', utf16)).toEqual({ text: '<p>hé</p>', charset: 'utf-16le' });
    expect(decodeHtml('text/html; charset=windows-1252', new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('é', 'utf8')]))).toEqual({ text: 'é', charset: 'utf-8' });
  });
});
