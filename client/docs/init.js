// Swagger UI over the gateway's own contract. A separate file, not an inline script, so the page's
// Content-Security-Policy can forbid inline scripts.
window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // "Try it out" calls this gateway; the key is typed into Authorize and kept in the page only.
  persistAuthorization: false,
  validatorUrl: null,
});
