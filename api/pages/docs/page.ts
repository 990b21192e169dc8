import { escapeHtml } from '../../../core/html';
import { docsAsset } from './assets';

/**
 * /docs: the OpenAPI document rendered by Scalar. The CSP allows scripts by nonce only (both are
 * files from our origin: the renderer and its start script), requests to our origin only (try-it),
 * and no framing. Styles: the renderer injects <style> elements at run time without a nonce, so
 * style-src needs 'unsafe-inline' (scripts never do).
 */
export function docsCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const assetUrl = (name: string) => `/docs/assets/${name}?v=${docsAsset(name)?.hash ?? ''}`;

/** One line of the no-script list of operations. */
export interface OperationLine {
  method: string;
  path: string;
  summary: string;
}

export function renderDocsPage(nonce: string, specUrl: string, operations: OperationLine[]): string {
  const rows = operations
    .map((o) => `<li><code>${escapeHtml(o.method.toUpperCase())} ${escapeHtml(o.path)}</code>: ${escapeHtml(o.summary)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript><main><h1>API reference</h1><p>The interactive reference needs JavaScript. The OpenAPI document: <a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a></p><ul>${rows}</ul></main></noscript>
<div id="reference" data-openapi-url="${escapeHtml(specUrl)}"></div>
<script nonce="${nonce}" src="${assetUrl('api-reference.js')}"></script>
<script nonce="${nonce}" src="${assetUrl('docs.js')}"></script>
</body>
</html>`;
}
