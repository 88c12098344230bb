#!/usr/bin/env python3
"""Golden data for src/http/validation/python-json.ts (parseJsonLikePython).

Runs CPython's own json.loads(str) over a fixed list of inputs and writes
test/golden/python-json-errors.json: an array of

    {"input": str, "ok": true,  "value"?: any}
    {"input": str, "ok": false, "msg": str, "pos": int}

where msg / pos are JSONDecodeError.msg / .pos (pos is a str index, i.e. a count
of code points). Non-finite floats inside "value" are written as
{"$float": "NaN" | "Infinity" | "-Infinity"} because strict JSON cannot hold them.

Must run on CPython 3.11 with the _json C accelerator (what json.loads uses in
production): 3.13 changed some messages ("Illegal trailing comma ...").

Usage: python3 scripts/pydantic-golden/json-errors.py
"""
import json
import json.decoder
import json.scanner
import math
import pathlib
import sys

OUT = pathlib.Path(__file__).resolve().parents[2] / 'test' / 'golden' / 'python-json-errors.json'

EMOJI = '\U0001F600'  # two UTF-16 units, one code point
CLEF = '\U0001D11E'

CASES = [
    # --- valid ---
    '{}',
    '[]',
    ' {"a": 1} ',
    '\t\n\r [1, 2.5, -3e2, 1E+2, -0.5e-3, true, false, null] \r\n',
    '{"a": 1, "a": 2}',
    '12345678901234567890',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"\\ud800"',  # lone high surrogate escape: valid in Python
    '"\\udc00\\ud800"',  # low then high: two lone surrogates
    '"\\ud800\\u0041"',  # high + non-low: not joined
    '"\\ud83d\\ude00"',  # escaped pair joined into one astral char
    '"\\u12345"',
    '"\x7f and \u2028"',  # DEL and U+2028 are not control characters
    f'"{EMOJI} \u00e9 {CLEF}"',
    f'{{"{EMOJI}": ["{CLEF}", "\\u00e9"]}}',
    'NaN',
    'Infinity',
    '-Infinity',
    ' [NaN, Infinity, -Infinity, 1] ',
    '{"a": NaN, "__proto__": {"b": 1}}',
    '[' * 500 + ']' * 500,  # deep, but under CPython's recursion limit
    # --- empty / whitespace ---
    '',
    '   ',
    '\n',
    '\u00a0 1',  # NBSP is not JSON whitespace
    '\f1',
    '\x0b1',
    # --- objects ---
    '{',
    '{ ',
    '{"a"',
    '{"a":',
    '{"a":}',
    '{"a" 1}',
    '{"a":1,}',
    '{"a":1,,}',
    '{,}',
    '{"a":1 "b":2}',
    "{'a':1}",
    '{a:1}',
    '{"a":1}x',
    # --- arrays ---
    '[',
    '[1',
    '[1,]',
    '[1,,2]',
    '[1 2]',
    '[[[[1]]]]]',
    '[] []',
    'null null',
    '[' * 500,  # deep and unclosed
    '{"a":' * 200 + 'x',
    # --- literals ---
    'tru',
    'nul',
    'fals',
    'nan',
    'inf',
    '-Inf',
    '-infinity',
    'True',
    # --- numbers ---
    '01',
    '00',
    '-01',
    '1.',
    '-',
    '1e',
    '1e+',
    '.5',
    '+1',
    '0x10',
    '1.5.2',
    '-.5',
    # --- strings ---
    '"abc',
    '"abc\\"',
    '"\\',
    '"\\x"',
    '"\\U0041"',
    '"\\u"',
    '"\\u12"',
    '"\\u12G4"',
    '"\\u1234',  # unterminated, but reported as a bad \\uXXXX escape
    '"\\ud800\\udc00',  # unterminated pair: pair needs 7 chars left
    '"\\ud800\\uzzzz"',
    '"\\ud800\\u12"',
    '"a\x00b"',
    '"tab\there"',
    '"\x1f"',
    '"line\nbreak"',
    # --- BOM ---
    '\ufeff{}',
    '\ufeff',
    ' \ufeff{}',
    # --- astral characters before the error (code points != UTF-16 units) ---
    f'"{EMOJI}" x',
    f'["{EMOJI}{EMOJI}", tru]',
    f'{{"{CLEF}": 1,}}',
    f'"{EMOJI}\\q"',
    f'"{EMOJI}\\u12"',
    f'"{EMOJI}\x01"',
    f'["{EMOJI}", "abc',
    f'"{EMOJI}" "{CLEF}"',
    f'{{"{EMOJI}{CLEF}": [1, 2 3]}}',
    f'"\\ud800\\u12{EMOJI}{EMOJI}{EMOJI}"',
    f'{EMOJI}',
    '"\\ud83d\\ude00" x',  # escaped pair: ASCII only, no shift
]


def encode_value(value):
    """Strict-JSON form of a parsed value (non-finite floats tagged)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {'$float': 'NaN' if math.isnan(value) else ('Infinity' if value > 0 else '-Infinity')}
    if isinstance(value, list):
        return [encode_value(v) for v in value]
    if isinstance(value, dict):
        return {k: encode_value(v) for k, v in value.items()}
    return value


def run(text):
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        return {'input': text, 'ok': False, 'msg': error.msg, 'pos': error.pos}
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:  # NaN / Infinity somewhere (only in shallow cases)
        value = encode_value(value)
    return {'input': text, 'ok': True, 'value': value}


def main():
    if sys.version_info[:2] != (3, 11):
        sys.exit(f'need CPython 3.11, got {sys.version.split()[0]}')
    if json.decoder.c_scanstring is None or json.scanner.c_make_scanner is None:
        sys.exit('the _json C accelerator is not available')
    if len(set(CASES)) != len(CASES):
        sys.exit('duplicate inputs in CASES')
    cases = [run(text) for text in CASES]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(cases, indent=1, ensure_ascii=True, allow_nan=False) + '\n', encoding='utf-8')
    failed = sum(1 for c in cases if not c['ok'])
    print(f'wrote {len(cases)} cases ({failed} errors) to {OUT}')


if __name__ == '__main__':
    main()
