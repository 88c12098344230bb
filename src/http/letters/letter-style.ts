import { createHash } from 'node:crypto';

/**
 * The letter's only styling, inline in its `<style>` element: readable on screen, printable on
 * A4 (page margins, no page break inside a row or heading, links print their text). No fonts,
 * images or anything else to load.
 */
export const LETTER_CSS = `
@page { size: A4; margin: 18mm 16mm; }
:root { color-scheme: light; }
html { background: #f3f4f6; }
body { margin: 0; font: 15px/1.5 Georgia, "Times New Roman", serif; color: #1f2328; }
main { max-width: 46rem; margin: 2rem auto; padding: 2.5rem 3rem; background: #fff; border: 1px solid #d0d7de; }
header { border-bottom: 2px solid #1f2328; margin-bottom: 1.5rem; padding-bottom: 1rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.2rem 0 0.4rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.6rem; padding-bottom: 0.2rem; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
h4 { font-size: 0.95rem; margin: 0.9rem 0 0.3rem; color: #57606a; }
h2, h3, h4 { font-family: Helvetica, Arial, sans-serif; break-after: avoid; page-break-after: avoid; }
p { margin: 0.4rem 0; }
.from, .meta, footer { font-family: Helvetica, Arial, sans-serif; font-size: 0.85rem; color: #57606a; }
.note { font-style: italic; color: #57606a; }
.empty, .none { color: #57606a; font-style: italic; }
section.category { margin-left: 0; padding-left: 0.9rem; border-left: 3px solid #d0d7de; }
dl { margin: 0.4rem 0; display: grid; grid-template-columns: minmax(9rem, 14rem) 1fr; gap: 0.25rem 1rem; }
dl > div { display: contents; }
dt { font-weight: bold; font-family: Helvetica, Arial, sans-serif; font-size: 0.88rem; padding-top: 0.1rem; }
dd { margin: 0; overflow-wrap: anywhere; }
dd > dl { margin: 0; grid-template-columns: max-content 1fr; }
.list { margin: 0.6rem 0; }
.label { font-weight: bold; font-family: Helvetica, Arial, sans-serif; font-size: 0.88rem; margin: 0.6rem 0 0.2rem; }
.record { border: 1px solid #d0d7de; border-radius: 4px; padding: 0.3rem 0.6rem; margin: 0.4rem 0; break-inside: avoid; page-break-inside: avoid; }
.record dl { grid-template-columns: minmax(8rem, 11rem) 1fr; }
ul { margin: 0.3rem 0; padding-left: 1.3rem; }
li { margin: 0.2rem 0; }
.table { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.3rem 0; font-size: 0.85rem; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.4rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f6f8fa; font-family: Helvetica, Arial, sans-serif; }
tr { break-inside: avoid; page-break-inside: avoid; }
a { color: #0a58ca; }
footer { margin-top: 2.5rem; border-top: 1px solid #d0d7de; padding-top: 0.6rem; }
@media print {
  html { background: #fff; }
  body { font-size: 11pt; }
  main { margin: 0; padding: 0; border: 0; max-width: none; }
  a { color: inherit; text-decoration: none; }
  .table { overflow: visible; }
}
`;

/** The CSP source expression that allows {@link LETTER_CSS} as a `<style>` element: `'sha256-…'`. */
export const LETTER_STYLE_SOURCE = `'sha256-${createHash('sha256').update(LETTER_CSS).digest('base64')}'`;

/**
 * The Content-Security-Policy of a letter (W3C CSP Level 3): nothing may load or run; only its
 * own `<style>` element applies, allowed by its SHA-256 hash; no framing, no forms, no base.
 */
export const LETTER_CSP = [
  "default-src 'none'",
  `style-src ${LETTER_STYLE_SOURCE}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
