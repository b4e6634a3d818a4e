/**
 * The pages' one stylesheet, served by the service (`GET /assets/convene.css`) so that the pages'
 * CSP can forbid inline styles. Mobile first; colours meet WCAG AA contrast on their backgrounds
 * (text #1f2937 on white 14.7:1, muted #4b5563 7.6:1, the status colours ≥ 4.5:1 with their text; a
 * badge already checked in is indigo, #312e81 on #e0e7ff, not the green of a first check-in);
 * a visible focus ring for keyboard users; controls at least 44 px high for fingers.
 */
import { asset } from './assets.ts';

const STYLESHEET = `
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
.status-already{background:#e0e7ff;color:#312e81}
.qr{display:block;width:100%;max-width:16rem;height:auto;margin:1rem auto;border-radius:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{color:#4b5563}
dd{margin:0;overflow-wrap:anywhere}
.footer{text-align:center;color:#4b5563;font-size:.875rem;padding:1rem}
h2:focus,h1:focus,[tabindex="-1"]:focus{outline:none}
.card>:first-child{margin-top:0}
summary{cursor:pointer;font-weight:600;min-height:1.5rem}
.card+.card{margin-top:1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.hint{color:#4b5563;font-size:.875rem;margin:.25rem 0}
input[type=file],input[type=password],input[type=email],input[type=text],textarea{display:block;width:100%;font:inherit;color:inherit;padding:.5rem;border:1px solid #6b7280;border-radius:.5rem;background:#fff}
textarea{min-height:5rem;resize:vertical}
button{font:inherit;font-weight:600;cursor:pointer;border-radius:.5rem;padding:.625rem 1rem;min-height:2.75rem;border:1px solid #1d4ed8;background:#fff;color:#1d4ed8}
button.primary{background:#1d4ed8;color:#fff}
button.danger{border-color:#b91c1c;color:#b91c1c}
button[aria-disabled=true]{opacity:.7;cursor:progress}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.75rem 0}
.pad{display:block;width:100%;height:12rem;background:#fff;border:2px dashed #6b7280;border-radius:.5rem;touch-action:none;cursor:crosshair}
.preview{display:block;max-width:100%;max-height:8rem;margin:.5rem 0;background:#fff;border:1px solid #d1d5db;border-radius:.5rem}
.error{color:#991b1b;font-weight:600}
.error:empty{display:none}
.notice{color:#14532d;font-weight:600}
.notice:empty{display:none}
.list{list-style:none;padding:0;margin:0}
.list>li+li{margin-top:1rem}
.links{list-style:none;padding:0;margin:.75rem 0}
.links>li{margin:.25rem 0}
.links a{display:inline-block;padding:.25rem 0;min-height:1.5rem}
.mail-frame{display:block;width:100%;height:70vh;margin:1rem 0;border:1px solid #d1d5db;border-radius:.5rem;background:#fff}
[hidden]{display:none!important}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
@media (min-width:40rem){main{padding:3rem 1rem}h1{font-size:1.875rem}.pad{height:14rem}}
`;

/** `GET /assets/convene.css` (served by the system routes). */
export const STYLESHEET_ASSET = asset('/assets/convene.css', 'text/css; charset=utf-8', STYLESHEET);
