/** The form page's CSS: small, no framework. `embed` drops the page chrome. */
export function formStyles(embed: boolean): string {
  return `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:${embed ? 'transparent' : '#f6f8fa'}}
main{max-width:40rem;margin:${embed ? '0' : '2rem auto'};padding:${embed ? '0.5rem' : '2rem'};background:#fff;${embed ? '' : 'border:1px solid #d0d7de;border-radius:8px'}}
h1{font-size:1.5rem;margin:0 0 .5rem}
.description{color:#57606a;margin:0 0 1.5rem;white-space:pre-line}
.field{margin:0 0 1.25rem;border:0;padding:0}
label,legend{display:block;font-weight:600;margin-bottom:.25rem}
.choice label{display:inline;font-weight:400;margin-left:.35rem}
.choice{margin:.2rem 0}
.req{color:#cf222e}
input:not([type=checkbox]):not([type=radio]),select,textarea{width:100%;padding:.55rem .65rem;font:inherit;border:1px solid #8c959f;border-radius:6px;background:#fff}
textarea{min-height:7rem;resize:vertical}
input:focus,select:focus,textarea:focus,button:focus{outline:3px solid #0969da55;outline-offset:1px}
[aria-invalid=true]{border-color:#cf222e!important}
.error{color:#cf222e;margin:.3rem 0 0;font-size:.9rem}
.form-error{border:1px solid #cf222e;background:#ffebe9;padding:.75rem;border-radius:6px;margin-bottom:1rem}
button{font:inherit;font-weight:600;padding:.65rem 1.4rem;border:0;border-radius:6px;background:#1f6feb;color:#fff;cursor:pointer}
button[disabled]{opacity:.6;cursor:progress}
.success{font-size:1.1rem;padding:1rem;border-radius:6px;background:#dafbe1;border:1px solid #1a7f37}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.rating{display:flex;gap:.75rem;flex-wrap:wrap}
.step{border:0;padding:0;margin:0;min-width:0}
.cond{border:0;padding:0;margin:0}
.progress{margin:0 0 1.25rem;color:#57606a;font-size:.9rem}
.progress progress{display:block;width:100%;height:.5rem;margin-top:.25rem}
.nav{display:flex;flex-direction:row-reverse;justify-content:flex-end;gap:.75rem}
button.secondary{background:#fff;color:#1f2328;border:1px solid #8c959f}
.score{font-weight:600;margin:.5rem 0 0}
`;
}
