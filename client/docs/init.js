// Swagger UI over the gateway's own contract. A separate file, not an inline script, so the page's
// Content-Security-Policy can forbid inline scripts.

// The spec's `servers` entry is the default local address; "Try it out" should call the gateway that
// serves this page, wherever it runs (and the page's CSP allows no other origin).
const specServer = 'http://127.0.0.1:8080';

window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The key typed into Authorize stays in this page; it is not written to storage.
  persistAuthorization: false,
  validatorUrl: null,
  requestInterceptor(request) {
    if (request.url.startsWith(`${specServer}/`)) request.url = location.origin + request.url.slice(specServer.length);
    return request;
  },
});
