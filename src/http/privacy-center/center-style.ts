/**
 * The privacy center pages' one stylesheet, served from the service's own origin
 * (`/privacy-center/assets/center.css`) so the console's CSP (`style-src 'self'`) applies unchanged.
 * The two answers of the agent path's confirmation page (`.answers`, `button.secondary`, PRODUCT §2.19).
 * The notice of a Global Privacy Control signal (`.gpc`, 11 CCR §7025(c)(6)) and a problem at its field (`.field-problem`).
 * Readable at 390 px (the request types are radio buttons whose labels wrap: a `<select>` cuts them); contrast at least 4.5:1 (WCAG 2.2 SC 1.4.3); visible focus.
 */
export const CENTER_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #1f2328; background: #f6f8fa; }
main { max-width: 36rem; margin: 2rem auto; padding: 1.5rem 1.75rem 2rem; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 0.75rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
p { margin: 0.5rem 0; }
label { display: block; font-weight: 600; margin: 1rem 0 0.35rem; }
select, input { display: block; width: 100%; font: inherit; padding: 0.6rem 0.7rem; border: 1px solid #57606a; border-radius: 6px; background: #fff; color: #1f2328; }
fieldset { border: 0; padding: 0; margin: 1rem 0 0; min-width: 0; }
legend { font-weight: 600; padding: 0; margin: 0 0 0.35rem; }
.choice { display: flex; align-items: flex-start; gap: 0.6rem; padding: 0.3rem 0; }
.choice input { flex: none; width: 1.25rem; height: 1.25rem; margin: 0.15rem 0 0; padding: 0; accent-color: #0a58ca; }
.choice label { flex: 1 1 auto; min-width: 0; margin: 0; font-weight: 400; overflow-wrap: anywhere; cursor: pointer; }
.back { margin-top: 1.5rem; }
input.code { letter-spacing: 0.3em; font-variant-numeric: tabular-nums; max-width: 12rem; }
button { margin-top: 1.25rem; font: inherit; font-weight: 600; padding: 0.65rem 1.3rem; border: 0; border-radius: 6px; background: #0a58ca; color: #fff; cursor: pointer; }
button:hover { background: #084298; }
.answers { display: flex; flex-wrap: wrap; gap: 0 0.75rem; }
button.secondary { background: #fff; color: #0a58ca; box-shadow: inset 0 0 0 2px #0a58ca; }
button.secondary:hover { background: #eef4ff; color: #084298; }
:focus-visible { outline: 3px solid #bf5a00; outline-offset: 2px; }
.hint { color: #57606a; font-size: 0.95rem; margin-top: 0.25rem; }
.problem { border-left: 4px solid #b42318; background: #fef3f2; padding: 0.6rem 0.9rem; margin: 1rem 0; }
.done { border-left: 4px solid #1a7f37; background: #f0fff4; padding: 0.6rem 0.9rem; margin: 1rem 0; }
.gpc { border-left: 4px solid #1a7f37; background: #f0fff4; padding: 0.6rem 0.9rem; margin: 1rem 0; }
.field-problem { color: #b42318; font-weight: 600; margin: 0.25rem 0; }
[aria-invalid="true"] { border-color: #b42318; }
#opt-out { margin-top: 2.5rem; padding-top: 1.5rem; border-top: 1px solid #d0d7de; }
.recorded li { margin: 0.5rem 0; }
dl { margin: 1rem 0; }
dl div { display: flex; flex-wrap: wrap; gap: 0 1rem; padding: 0.4rem 0; border-bottom: 1px solid #eaeef2; }
dt { font-weight: 600; min-width: 10rem; }
dd { margin: 0; }
a { color: #0a58ca; }
footer { margin-top: 2rem; color: #57606a; font-size: 0.9rem; }
@media (max-width: 480px) { main { margin: 0; border: 0; border-radius: 0; padding: 1.25rem 1rem 2rem; } dt { min-width: 0; } }
`;
