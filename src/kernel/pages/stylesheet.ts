/**
 * The pages' one stylesheet, served by the service (`GET /assets/convene.css`) so that the pages'
 * CSP can forbid inline styles. Mobile first; colours meet WCAG AA contrast on their backgrounds
 * (text #1f2937 on white 14.7:1, muted #4b5563 7.6:1, the status colours ≥ 4.5:1 with their text);
 * a visible focus ring for keyboard users.
 */
import { createHash } from 'node:crypto';

export const STYLESHEET_PATH = '/assets/convene.css';

export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:#1f2937;background:#f3f4f6}
body{margin:0;min-height:100vh;display:flex;flex-direction:column}
main{flex:1;width:100%;max-width:40rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .25rem}
h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
p{margin:.5rem 0}
a{color:#1d4ed8}
a:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.muted{color:#4b5563}
.status{display:inline-block;font-weight:700;border-radius:999px;padding:.25rem .75rem;margin:.5rem 0}
.status-ok{background:#dcfce7;color:#14532d}
.status-bad{background:#fee2e2;color:#7f1d1d}
.status-wait{background:#fef3c7;color:#78350f}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{color:#4b5563}
dd{margin:0;overflow-wrap:anywhere}
.footer{text-align:center;color:#4b5563;font-size:.875rem;padding:1rem}
@media (min-width:40rem){main{padding:3rem 1rem}h1{font-size:1.875rem}}
`;

/** A version of the stylesheet for its URL's cache (a change of the CSS changes the ETag). */
export const STYLESHEET_ETAG = `"${createHash('sha256').update(STYLESHEET).digest('base64url').slice(0, 16)}"`;
